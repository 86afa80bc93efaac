import { IsInt, IsString } from 'class-validator';

import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from '../index.js';

/** Arguments of the conformance `add` tool. */
export class ConformanceAddParams {
  /** The first addend. */
  @IsInt() a!: number;
  /** The second addend. */
  @IsInt() b!: number;
}

/** Arguments of the conformance `echo` and `explode` tools. */
export class ConformanceTextParams {
  /** The text to echo, or the reason to fail. */
  @IsString() text!: string;
}

/** The structured answer of the conformance output prompt. */
export class ConformanceForecast {
  /** The city the forecast is for. */
  @IsString() city!: string;
  /** The temperature in degrees Celsius. */
  @IsInt() temperature!: number;
}

/** The prompts the conformance checks evaluate, and the call ids their handlers saw, in dispatch order. */
export interface ConformancePrompts {
  /** A prompt offering `add`, `echo` and `explode` (whose handler throws). */
  readonly tools: Prompt;
  /** The same tools, with `ConformanceForecast` as the structured output. */
  readonly forecast: Prompt<ConformanceForecast>;
  /** The same tools, except that every `echo` call needs a person's approval. */
  readonly approval: Prompt;
  /** The call id of every handler run, in the order the handlers started. */
  readonly dispatched: string[];
}

/** Fresh conformance prompts, with an empty dispatch log. */
export function conformancePrompts(): ConformancePrompts {
  const dispatched: string[] = [];
  const section = new MarkdownSection({
    key: 'conformance',
    title: 'Conformance',
    template: 'Use the tools when asked; answer briefly.',
    tools: [
      new ToolDefinition({
        name: 'add',
        description: 'Adds two integers.',
        params: ConformanceAddParams,
        handler: (params: ConformanceAddParams, context) => {
          dispatched.push(context.callId);
          return ToolResult.ok({ sum: params.a + params.b }, 'Added.');
        },
      }),
      new ToolDefinition({
        name: 'echo',
        description: 'Repeats a text.',
        params: ConformanceTextParams,
        handler: (params: ConformanceTextParams, context) => {
          dispatched.push(context.callId);
          return ToolResult.ok({ text: params.text }, 'Echoed.');
        },
      }),
      new ToolDefinition({
        name: 'explode',
        description: 'Always fails.',
        params: ConformanceTextParams,
        handler: (params: ConformanceTextParams, context) => {
          dispatched.push(context.callId);
          throw new Error(`exploded on purpose: ${params.text}`);
        },
      }),
    ],
  });
  return {
    tools: new Prompt({ ns: 'conformance', key: 'tools', sections: [section] }),
    forecast: new Prompt({
      ns: 'conformance',
      key: 'forecast',
      sections: [section],
      output: ConformanceForecast,
    }),
    approval: approvalPrompt(section),
    dispatched,
  };
}

/** The conformance tools, with `echo` needing a person's approval. */
function approvalPrompt(section: MarkdownSection): Prompt {
  const tools = section.tools.map((tool) =>
    tool.name === 'echo'
      ? new ToolDefinition({
          name: tool.name,
          description: tool.description,
          params: ConformanceTextParams,
          handler: tool.handler,
          approval: true,
        })
      : tool,
  );
  return new Prompt({
    ns: 'conformance',
    key: 'approval',
    sections: [
      new MarkdownSection({
        key: 'conformance',
        title: 'Conformance',
        template: 'Use the tools when asked; answer briefly.',
        tools,
      }),
    ],
  });
}
