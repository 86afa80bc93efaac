import 'reflect-metadata';

import { Container } from 'inversify';

import {
  AffordanceError,
  parseToolArguments,
  Prompt,
  ResourceRegistry,
  Session,
  type ToolContext,
  type ToolDefinition,
  ToolResult,
  toJsonSchema,
} from 'affordance';

import { EntityStore } from './entity-store.js';
import { GuidanceParams, GuidanceSection } from './guidance-section.js';

/** A tool call as a model would send it: a call id, a tool name and JSON text. */
interface ModelCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * The model's side of this offline run, scripted: one good call, one with
 * invalid and unknown arguments, one for an entity that does not exist.
 */
const scriptedCalls: readonly ModelCall[] = [
  {
    callId: 'call_1',
    name: 'lookup_entity',
    arguments: '{"entityId":"acme-42","includeRelated":true}',
  },
  { callId: 'call_2', name: 'lookup_entity', arguments: '{"entityId":"ACME 42","verbose":true}' },
  { callId: 'call_3', name: 'lookup_entity', arguments: '{"entityId":"acme-99"}' },
];

/**
 * Renders the quickstart prompt, prints what the model would receive (text and
 * strict tool schemas), then runs the scripted calls through argument
 * validation and the decorated handler, printing each tool message.
 * Returns the tool messages in call order.
 */
export async function run(print: (line: string) => void = console.log): Promise<string[]> {
  const container = new Container();
  container.bind(EntityStore).toSelf().inSingletonScope();
  container.bind(GuidanceSection).toSelf();

  const prompt = new Prompt({
    ns: 'examples/tooling',
    key: 'tools_overview',
    sections: [GuidanceSection],
  });
  const session = new Session();
  const rendered = prompt.render({ params: [new GuidanceParams()], session });

  print('=== Prompt text ===');
  print(rendered.text);
  print('\n=== Tools (openai-strict schemas) ===');
  for (const tool of rendered.tools) {
    const schema =
      tool.paramsType === undefined ? undefined : toJsonSchema(tool.paramsType, 'openai-strict');
    print(`${tool.name}: ${tool.description}`);
    print(`  strict-compatible: ${String(schema?.strictCompatible ?? true)}`);
    print(`  ${JSON.stringify(schema?.schema ?? {})}`);
  }

  print('\n=== Tool calls ===');
  const messages: string[] = [];
  for (const call of scriptedCalls) {
    const context: ToolContext = Object.freeze({
      callId: call.callId,
      signal: new AbortController().signal,
      services: container,
      prompt,
      renderedPrompt: rendered,
      session,
      deadline: undefined,
      budgetTracker: undefined,
      resources: new ResourceRegistry().open(),
      filesystem: undefined,
    });
    const result = await dispatch(call, rendered.tool(call.name), context);
    const text = result.toModelText();
    messages.push(text);
    print(`-> ${call.name}(${call.arguments}) [${result.success ? 'ok' : 'failed'}]`);
    print(text.replace(/^(?=.)/gm, '   '));
  }
  return messages;
}

async function dispatch(
  call: ModelCall,
  tool: ToolDefinition | undefined,
  context: ToolContext,
): Promise<ToolResult> {
  if (tool?.handler === undefined) return ToolResult.error(`Unknown tool '${call.name}'.`);
  try {
    const params =
      tool.paramsType === undefined
        ? undefined
        : await parseToolArguments(tool.paramsType, call.arguments);
    return await tool.handler(params, context);
  } catch (error) {
    if (AffordanceError.is(error) && error.code === 'tool_validation') {
      return ToolResult.error(`Tool validation failed: ${error.message}`);
    }
    throw error;
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
