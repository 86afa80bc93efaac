import { readdirSync, readFileSync } from 'node:fs';

import { Allow } from 'class-validator';

import { ApplyPatchTool, ShellCommandOutput, ShellTool } from '../../src/openai/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { ToolChoice } from '../../src/provider/conversation.js';
import type { DataClass } from '../../src/core/class-type.js';
import { NativeTool, type NativeToolType } from '../../src/tools/native-tool.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';

/** A JSON object of a recording. */
export type Json = Record<string, unknown>;

/** One recorded HTTP exchange (`request` is `null` where only the response was recorded). */
export interface Exchange {
  readonly request: Json | null;
  readonly status: number;
  readonly response: Json;
}

/** A file of `test/fixtures/openai/recordings` (see its README). */
export interface Recording {
  readonly name: string;
  readonly source: string;
  readonly synthetic: boolean;
  readonly exchanges: readonly Exchange[];
}

const root = new URL('../fixtures/openai/recordings/', import.meta.url);

/** Every recording, `folder/file` sorted. */
export function loadRecordings(): Recording[] {
  const recordings: Recording[] = [];
  for (const owner of ['pydantic-ai', 'vercel-ai']) {
    for (const folder of readdirSync(new URL(`${owner}/`, root))) {
      if (folder === 'LICENSE') continue;
      for (const file of readdirSync(new URL(`${owner}/${folder}/`, root)).sort()) {
        const data = JSON.parse(
          readFileSync(new URL(`${owner}/${folder}/${file}`, root), 'utf8'),
        ) as Omit<Recording, 'name'>;
        recordings.push({ name: `${owner}/${folder}/${file}`, ...data });
      }
    }
  }
  return recordings;
}

/** Whether the recording talks to Chat Completions. */
export const isChat = (recording: Recording): boolean =>
  recording.exchanges.some((exchange) => exchange.request?.['messages'] !== undefined);

/** Output items of a Responses body (empty for other bodies). */
export const outputOf = (response: Json): Json[] =>
  Array.isArray(response['output']) ? (response['output'] as Json[]) : [];

/** `tool_calls` of the first choice of a Chat Completions body. */
export const chatCallsOf = (response: Json): Json[] => {
  const choice = (response['choices'] as Json[] | undefined)?.[0];
  const calls = (choice?.['message'] as Json | undefined)?.['tool_calls'];
  return Array.isArray(calls) ? (calls as Json[]) : [];
};

const clientCallTypes = new Set(['function_call', 'shell_call', 'apply_patch_call']);

/** Whether the response asks the client to run something (so the conversation goes on). */
export function asksClient(response: Json): boolean {
  return (
    chatCallsOf(response).length > 0 ||
    outputOf(response).some(
      (item) =>
        clientCallTypes.has(String(item['type'])) &&
        !(item['type'] === 'shell_call' && isHostedShell(item)),
    )
  );
}

export function isHostedShell(item: Json): boolean {
  const environment = item['environment'] as Json | undefined;
  return String(environment?.['type']).startsWith('container');
}

/**
 * The exchanges one evaluation goes through: the first, and each next one as
 * long as the previous response asked the client to run calls. (Later
 * exchanges of a cassette start a new user turn, a new evaluation.)
 */
export function evaluationRun(recording: Recording): Exchange[] {
  const run: Exchange[] = [];
  for (const exchange of recording.exchanges) {
    run.push(exchange);
    if (!asksClient(exchange.response)) break;
  }
  return run;
}

/** What a replay prompt's tools received. */
export interface ReplayLog {
  readonly functions: [name: string, params: unknown][];
  readonly shell: unknown[];
  readonly patches: unknown[];
}

/**
 * A prompt offering what the recording's model called: one function tool per
 * function name (params: a class allowing exactly the recorded argument
 * keys), native tools for hosted calls (configured from the tools the
 * response echoes), and `ShellTool` / `ApplyPatchTool` for client-run calls.
 * Function tools answer with the output the recorded follow-up sent for the
 * call, when there is one.
 */
export function replayPrompt(recording: Recording, log: ReplayLog): Prompt {
  const outputs = recordedOutputs(recording);
  const keys = new Map<string, Set<string>>();
  const natives = new Map<string, NativeTool>();
  let shell = false;
  let patch = false;
  const echoed = recording.exchanges.flatMap((exchange) =>
    Array.isArray(exchange.response['tools']) ? (exchange.response['tools'] as Json[]) : [],
  );
  const noteFunction = (name: string, args: unknown): void => {
    const set = keys.get(name) ?? new Set<string>();
    if (typeof args === 'string' && args.trim().startsWith('{')) {
      for (const key of Object.keys(JSON.parse(args) as Json)) set.add(key);
    }
    keys.set(name, set);
  };
  for (const exchange of recording.exchanges) {
    for (const tool of (exchange.request?.['tools'] ?? []) as Json[]) {
      const fn = (tool['function'] ?? tool) as Json;
      if ((tool['type'] ?? 'function') === 'function') noteFunction(String(fn['name']), undefined);
    }
    for (const call of chatCallsOf(exchange.response)) {
      const fn = call['function'] as Json;
      noteFunction(String(fn['name']), fn['arguments']);
    }
    for (const item of outputOf(exchange.response)) {
      const type = String(item['type']);
      if (type === 'function_call') noteFunction(String(item['name']), item['arguments']);
      else if (type === 'shell_call' && !isHostedShell(item)) shell = true;
      else if (type === 'apply_patch_call') patch = true;
      else {
        const native = nativeFor(type, item, echoed);
        if (native !== undefined) natives.set(native.name, native);
      }
    }
  }
  const tools: ToolDefinition[] = [...keys].map(
    ([name, fields]) =>
      new ToolDefinition({
        name,
        description: `Replayed tool ${name}.`,
        params: fields.size === 0 ? undefined : paramsClass(name, fields),
        handler: (params: unknown, context) => {
          log.functions.push([name, params]);
          return ToolResult.ok(null, outputs.get(context.callId) ?? `Result of ${name}.`);
        },
      }),
  );
  if (shell) {
    tools.push(
      new ShellTool({
        handler: (params) => {
          log.shell.push(params);
          return ToolResult.ok(
            params.commands.map((command) => ShellCommandOutput.of(`ran: ${command}\n`)),
          );
        },
      }),
    );
  }
  if (patch) {
    tools.push(
      new ApplyPatchTool({
        handler: (operation) => {
          log.patches.push(operation);
          return ToolResult.ok(null, `Applied ${operation.type} to ${operation.path}.`);
        },
      }),
    );
  }
  tools.push(...natives.values());
  return new Prompt({
    ns: 'test/replay',
    key: recording.name.replace(/[^a-z0-9-]+/gi, '-').slice(-60),
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

/** The user input of the first recorded request, if any. */
export function recordedInput(recording: Recording): string {
  const request = recording.exchanges[0]?.request;
  const messages = (request?.['input'] ?? request?.['messages'] ?? []) as Json[];
  const user = Array.isArray(messages)
    ? messages.find((item) => item['role'] === 'user')
    : undefined;
  return typeof user?.['content'] === 'string' ? user['content'] : 'Replay the recording.';
}

/** The recorded first `tool_choice`, as the runtime's `ToolChoice` (allowed_tools has none: `auto`). */
export function recordedToolChoice(recording: Recording): ToolChoice {
  const choice = recording.exchanges[0]?.request?.['tool_choice'];
  if (choice === 'required' || choice === 'none') return choice;
  if (typeof choice === 'object' && choice !== null) {
    const record = choice as Json;
    const name = record['name'] ?? (record['function'] as Json | undefined)?.['name'];
    if (record['type'] === 'function' && typeof name === 'string') return { name };
  }
  return 'auto';
}

/**
 * call id → output text the recorded follow-up requests sent, paired with the
 * previous response's calls by position (a 2025 recorder sent item ids where
 * call ids belong).
 */
function recordedOutputs(recording: Recording): Map<string, string> {
  const outputs = new Map<string, string>();
  let previousCalls: string[] = [];
  for (const { request, response } of recording.exchanges) {
    const items = (request?.['input'] ?? request?.['messages'] ?? []) as Json[];
    const sent = Array.isArray(items)
      ? items.flatMap((item): [string, string][] => {
          if (item['type'] === 'function_call_output')
            return [[String(item['call_id']), String(item['output'])]];
          if (item['role'] === 'tool')
            return [[String(item['tool_call_id']), String(item['content'])]];
          return [];
        })
      : [];
    sent.forEach(([callId, output], index) => outputs.set(previousCalls[index] ?? callId, output));
    previousCalls = [
      ...chatCallsOf(response).map((call) => String(call['id'])),
      ...outputOf(response)
        .filter((item) => item['type'] === 'function_call')
        .map((item) => String(item['call_id'])),
    ];
  }
  return outputs;
}

const nativeTypes: Readonly<Record<string, string>> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  code_interpreter_call: 'code_interpreter',
  image_generation_call: 'image_generation',
  mcp_call: 'mcp',
  mcp_list_tools: 'mcp',
  mcp_approval_request: 'mcp',
  shell_call: 'shell',
};

function nativeFor(itemType: string, item: Json, echoed: readonly Json[]): NativeTool | undefined {
  const type = nativeTypes[itemType];
  if (type === undefined) return undefined;
  const echo = echoed.find((tool) => String(tool['type']).startsWith(type)) ?? {};
  const config: Json = {};
  for (const [key, value] of Object.entries(echo)) {
    // The echo of image_generation carries `n`, which ImageGenTool (the request schema) does not take.
    if (key !== 'type' && key !== 'n' && value !== null) config[key] = value;
  }
  if (type === 'file_search' && config['vector_store_ids'] === undefined)
    config['vector_store_ids'] = ['vs_replay'];
  if (type === 'mcp') {
    config['server_label'] ??= item['server_label'];
    config['server_url'] ??= 'https://mcp.example.test/mcp';
  }
  if (type === 'shell') config['environment'] ??= item['environment'];
  return new NativeTool({
    type: type as NativeToolType,
    description: `Provider-run ${type}.`,
    config,
  });
}

function paramsClass(name: string, fields: ReadonlySet<string>): DataClass {
  const cls = { [name]: class {} }[name] as DataClass;
  for (const field of fields) Allow()(cls.prototype as object, field);
  return cls;
}
