import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { Allow } from 'class-validator';

import type { DataClass } from '../../src/core/class-type.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { ToolChoice } from '../../src/provider/conversation.js';
import { NativeTool, type NativeToolType } from '../../src/tools/native-tool.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/** A JSON object of a recording. */
export type Json = Record<string, unknown>;

/** One recorded HTTP exchange (`request` is `null` where only the response was recorded). */
export interface AnthropicExchange {
  readonly request: Json | null;
  readonly status: number;
  readonly response: Json;
}

/** A recording: its exchanges, and the raw stream events when it is a `.chunks.txt`. */
export interface AnthropicRecording {
  readonly name: string;
  readonly exchanges: readonly AnthropicExchange[];
  readonly events?: readonly Json[];
}

const root = new URL('../fixtures/anthropic/', import.meta.url);
const files = (owner: string): string[] =>
  readdirSync(new URL(`${owner}/`, root))
    .filter((file) => file !== 'LICENSE')
    .sort();
const read = (owner: string, file: string): string =>
  readFileSync(new URL(`${owner}/${file}`, root), 'utf8');

/**
 * `name` as an affordance tool name (`^[a-z0-9_-]{1,64}$`): two recordings
 * call camelCase tools (`rollDie`, `updateIssueList`), which affordance
 * refuses; the replay serves them as `roll_die`, `update_issue_list`.
 */
export function toolNameOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** `response` with its `tool_use` names made affordance tool names (see {@link toolNameOf}); otherwise unchanged. */
export function servable(response: Json): Json {
  if (
    !blocksOf(response).some(
      (block) =>
        block['type'] === 'tool_use' && toolNameOf(String(block['name'])) !== block['name'],
    )
  ) {
    return response;
  }
  const copy: Json = { ...response };
  copy['content'] = blocksOf(response).map((block) =>
    block['type'] === 'tool_use' ? { ...block, name: toolNameOf(String(block['name'])) } : block,
  );
  return copy;
}

/** Stream events with `tool_use` names made affordance tool names (see {@link toolNameOf}). */
export function servableEvents(events: readonly Json[]): Json[] {
  return events.map((event) => {
    const block = event['content_block'] as Json | undefined;
    if (block?.['type'] !== 'tool_use') return event;
    return { ...event, content_block: { ...block, name: toolNameOf(String(block['name'])) } };
  });
}

/** The vercel-ai `*.json` bodies, each as one response-only exchange. */
export function jsonRecordings(): AnthropicRecording[] {
  return files('vercel-ai')
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({
      name: `vercel-ai/${file}`,
      exchanges: [
        {
          request: null,
          status: 200,
          response: servable(JSON.parse(read('vercel-ai', file)) as Json),
        },
      ],
    }));
}

/** The vercel-ai `*.chunks.txt` streams: their events, one JSON payload a line. */
export function chunkRecordings(): AnthropicRecording[] {
  return files('vercel-ai')
    .filter((file) => file.endsWith('.chunks.txt'))
    .map((file) => ({
      name: `vercel-ai/${file}`,
      exchanges: [],
      events: servableEvents(
        read('vercel-ai', file)
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as Json),
      ),
    }));
}

interface Yaml {
  load(text: string, options: { schema: unknown }): unknown;
  readonly CORE_SCHEMA: unknown;
}

/**
 * The pydantic-ai cassettes of `folder` (by default the Anthropic ones; the
 * tool-choice matrix is `pydantic-ai/tool-choice-matrix`), read with the
 * js-yaml copy already in node_modules (see the fixtures README).
 */
export function cassetteRecordings(folder = 'pydantic-ai'): AnthropicRecording[] {
  const yaml = createRequire(import.meta.url)('js-yaml') as Yaml;
  return files(folder)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => {
      const cassette = yaml.load(read(folder, file), { schema: yaml.CORE_SCHEMA }) as {
        interactions: { request: Json; response: Json }[];
      };
      return {
        name: `${folder}/${file}`,
        exchanges: cassette.interactions.map(({ request, response }) => ({
          request: request['parsed_body'] as Json,
          status: (response['status'] as Json)['code'] as number,
          response: servable(response['parsed_body'] as Json),
        })),
      };
    });
}

/** Content blocks of a message. */
export const blocksOf = (message: Json | null | undefined): Json[] =>
  Array.isArray(message?.['content']) ? (message['content'] as Json[]) : [];

/** The `tool_use` blocks the client must answer. */
export const clientCalls = (message: Json): Json[] =>
  blocksOf(message).filter((block) => block['type'] === 'tool_use');

/** The exchanges of one evaluation: the first, and each next one while the previous asked the client to run calls. */
export function evaluationRun(recording: AnthropicRecording): AnthropicExchange[] {
  const run: AnthropicExchange[] = [];
  for (const exchange of recording.exchanges) {
    run.push(exchange);
    if (clientCalls(exchange.response).length === 0) break;
  }
  return run;
}

/** What a replay prompt's tools received. */
export type ReplayLog = [name: string, params: unknown][];

const serverKinds: Readonly<Record<string, NativeToolType>> = {
  web_search: 'web_search',
  web_fetch: 'web_fetch',
  code_execution: 'code_execution',
  bash_code_execution: 'code_execution',
  text_editor_code_execution: 'code_execution',
};

/**
 * A prompt offering what the recording's model called: one tool per client
 * tool name (params: a class allowing exactly the recorded input keys), and a
 * `NativeTool` per server tool kind (its version from the recorded request
 * when there is one). A tool answers with the content the recorded follow-up
 * sent for the call, when there is one. `output` becomes the prompt's output class.
 */
export function replayPrompt(
  recording: AnthropicRecording,
  log: ReplayLog,
  output?: DataClass,
): Prompt {
  const outputs = recordedOutputs(recording);
  const keys = new Map<string, Set<string>>();
  const natives = new Map<NativeToolType, string | undefined>();
  for (const { request, response } of recording.exchanges) {
    for (const tool of (request?.['tools'] ?? []) as Json[]) {
      const kind = serverKinds[String(tool['name'])];
      if (tool['type'] !== undefined && tool['type'] !== 'custom' && kind !== undefined) {
        natives.set(kind, tool['type'] as string);
      } else {
        const properties = ((tool['input_schema'] as Json | undefined)?.['properties'] ??
          {}) as Json;
        const name = toolNameOf(String(tool['name']));
        const set = keys.get(name) ?? new Set<string>();
        for (const key of Object.keys(properties)) set.add(key);
        keys.set(name, set);
      }
    }
    for (const block of blocksOf(response)) {
      if (block['type'] === 'tool_use') {
        const set = keys.get(String(block['name'])) ?? new Set<string>();
        for (const key of Object.keys(block['input'] ?? {})) set.add(key);
        keys.set(String(block['name']), set);
      }
      const kind = serverKinds[String(block['name'])];
      if (block['type'] === 'server_tool_use' && kind !== undefined && !natives.has(kind))
        natives.set(kind, undefined);
    }
  }
  const tools: ToolDefinition[] = [...keys].map(
    ([name, fields]) =>
      new ToolDefinition({
        name,
        description: `Replayed tool ${name}.`,
        params: fields.size === 0 ? undefined : paramsClass(name, fields),
        handler: (params: unknown, context) => {
          log.push([name, params]);
          return ToolResult.ok(null, outputs.get(context.callId) ?? `Result of ${name}.`);
        },
      }),
  );
  for (const [type, version] of natives) {
    tools.push(new NativeTool({ type, config: version === undefined ? {} : { type: version } }));
  }
  return new Prompt({
    ns: 'test/replay',
    key: recording.name.replace(/[^a-z0-9-]+/gi, '-').slice(-60),
    output,
    sections: [
      new MarkdownSection({
        key: 'replay',
        title: 'Replay',
        template: 'Replay a recording.',
        tools,
      }),
    ],
  });
}

/** The first user text of the first recorded request. */
export function recordedInput(recording: AnthropicRecording): string {
  const first = (recording.exchanges[0]?.request?.['messages'] as Json[] | undefined)?.[0];
  const content = first?.['content'];
  if (typeof content === 'string') return content;
  const block = Array.isArray(content)
    ? (content as Json[]).find((item) => item['type'] === 'text')
    : undefined;
  return typeof block?.['text'] === 'string' ? block['text'] : 'Replay the recording.';
}

/** The recorded first `tool_choice`, as the runtime's `ToolChoice`. */
export function recordedToolChoice(recording: AnthropicRecording): ToolChoice {
  const choice = recording.exchanges[0]?.request?.['tool_choice'] as Json | undefined;
  if (choice?.['type'] === 'any') return 'required';
  if (choice?.['type'] === 'none') return 'none';
  if (choice?.['type'] === 'tool') return { name: String(choice['name']) };
  return 'auto';
}

/** tool_use id → the content the recorded follow-up sent for it. */
function recordedOutputs(recording: AnthropicRecording): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const { request } of recording.exchanges) {
    for (const message of (request?.['messages'] ?? []) as Json[]) {
      for (const block of blocksOf(message)) {
        if (block['type'] === 'tool_result' && typeof block['content'] === 'string') {
          outputs.set(String(block['tool_use_id']), block['content']);
        }
      }
    }
  }
  return outputs;
}

function paramsClass(name: string, fields: ReadonlySet<string>): DataClass {
  const cls = { [name]: class {} }[name] as DataClass;
  for (const field of fields) Allow()(cls.prototype as object, field);
  return cls;
}
