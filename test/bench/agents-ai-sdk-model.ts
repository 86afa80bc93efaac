/**
 * A minimal OpenAI Agents SDK `Model` over an AI SDK language model object,
 * for the bench only: `@openai/agents-extensions` (whose `aisdk(model)` is
 * the published bridge) pins `@openai/agents-core` 0.18, and this repository
 * tests 0.14. It translates only what the bench conversation holds (system
 * instructions, a user message, function calls and their text results,
 * function tools) and does no validation, so it is cheaper than a full bridge:
 * the peer's loop measured through it is, if anything, faster than through
 * the published one.
 */
import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
} from '@ai-sdk/provider';
import {
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Usage,
} from '@openai/agents-core';

type Part = Record<string, unknown>;

export class AgentsAiSdkModel implements Model {
  readonly #model: LanguageModelV3;

  constructor(model: LanguageModelV3) {
    this.#model = model;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const tools: LanguageModelV3FunctionTool[] = request.tools.flatMap((tool) =>
      tool.type === 'function'
        ? [
            {
              type: 'function' as const,
              name: tool.name,
              description: tool.description,
              inputSchema: tool.parameters as LanguageModelV3FunctionTool['inputSchema'],
            },
          ]
        : [],
    );
    const result = await this.#model.doGenerate({
      prompt: promptOf(request),
      tools,
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
    });
    const output: AgentOutputItem[] = [];
    for (const part of result.content) {
      if (part.type === 'text') {
        output.push({
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: part.text }],
        });
      } else if (part.type === 'tool-call') {
        output.push({
          type: 'function_call',
          callId: part.toolCallId,
          name: part.toolName,
          arguments: part.input,
          status: 'completed',
        });
      }
    }
    const input = result.usage.inputTokens.total ?? 0;
    const produced = result.usage.outputTokens.total ?? 0;
    return {
      output,
      usage: new Usage({
        requests: 1,
        inputTokens: input,
        outputTokens: produced,
        totalTokens: input + produced,
      }),
    };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('AgentsAiSdkModel: the bench does not stream.');
  }
}

/** The AI SDK prompt of the run's items: consecutive calls in one assistant message, results in one tool message. */
function promptOf(request: ModelRequest): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  if (request.systemInstructions !== undefined) {
    prompt.push({ role: 'system', content: request.systemInstructions });
  }
  const items: AgentInputItem[] =
    typeof request.input === 'string'
      ? [{ type: 'message', role: 'user', content: request.input }]
      : request.input;
  for (const item of items) {
    const record = item as Part;
    const last = prompt.at(-1);
    if (record['type'] === 'function_call') {
      const call = {
        type: 'tool-call' as const,
        toolCallId: String(record['callId']),
        toolName: String(record['name']),
        input: JSON.parse(String(record['arguments'])) as unknown,
      };
      if (last?.role === 'assistant') last.content.push(call);
      else prompt.push({ role: 'assistant', content: [call] });
    } else if (record['type'] === 'function_call_result') {
      const output = record['output'];
      const text =
        typeof output === 'string' ? output : String((output as Part | undefined)?.['text']);
      const result = {
        type: 'tool-result' as const,
        toolCallId: String(record['callId']),
        toolName: String(record['name']),
        output: { type: 'text' as const, value: text },
      };
      if (last?.role === 'tool') last.content.push(result);
      else prompt.push({ role: 'tool', content: [result] });
    } else if (record['role'] === 'user') {
      const content = record['content'];
      const text =
        typeof content === 'string'
          ? content
          : (content as Part[]).map((part) => textOf(part)).join('');
      prompt.push({ role: 'user', content: [{ type: 'text', text }] });
    } else if (record['role'] === 'assistant') {
      const text = ((record['content'] as Part[] | undefined) ?? [])
        .map((part) => textOf(part))
        .join('');
      prompt.push({ role: 'assistant', content: [{ type: 'text', text }] });
    }
  }
  return prompt;
}

function textOf(part: Part): string {
  const text = part['text'];
  return typeof text === 'string' ? text : '';
}
