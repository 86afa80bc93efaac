import { Allow, IsString } from 'class-validator';

import type { DataClass } from '../../src/core/class-type.js';
import { PromptEvaluationError } from '../../src/core/errors/prompt-evaluation-error.js';
import { AnthropicAdapter } from '../../src/anthropic/index.js';
import type { ToolChoice } from '../../src/provider/conversation.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Session } from '../../src/session/session.js';
import { catchRejection } from '../support/catch-error.js';
import { type AnthropicHarness, startAnthropic } from '../support/anthropic-harness.js';
import { messageBody } from '../support/anthropic-payloads.js';
import {
  type AnthropicRecording,
  blocksOf,
  cassetteRecordings,
  clientCalls,
  evaluationRun,
  type Json,
  jsonRecordings,
  recordedInput,
  recordedToolChoice,
  replayPrompt,
  type ReplayLog,
} from '../support/anthropic-recordings.js';

/**
 * The shape of a request's conversation: per message its role and blocks,
 * ids as `#1`, `#2`... in order of appearance, tool results with their
 * content and `is_error`.
 */
function shape(body: Json | null | undefined): string[] {
  const ids = new Map<string, string>();
  const id = (value: unknown): string => {
    const text = String(value);
    if (!ids.has(text)) ids.set(text, `#${ids.size + 1}`);
    return ids.get(text) as string;
  };
  return ((body?.['messages'] ?? []) as Json[]).map((message) => {
    const blocks = blocksOf(message).map((block) => {
      const type = String(block['type']);
      if (type === 'tool_result') {
        return `${type}:${id(block['tool_use_id'])}:${String(block['content'])}:${block['is_error'] === true}`;
      }
      return block['id'] === undefined ? type : `${type}:${id(block['id'])}`;
    });
    return `${String(message['role'])}:${blocks.join(',')}`;
  });
}

const serverCalls = (message: Json): Json[] =>
  blocksOf(message).filter(
    (block) => block['type'] === 'server_tool_use' || block['type'] === 'mcp_tool_use',
  );

/** pydantic-ai's output tool, and the adapter's (README: "a forced `final_answer` tool"). */
const RECORDED_OUTPUT = 'final_result';
const OUTPUT_TOOL = 'final_answer';

/** The recorded `tool_choice` and tool names with pydantic-ai's output tool named as the adapter's. */
const wireOf = (request: Json | null | undefined): { toolChoice: unknown; tools: unknown[] } => {
  const rename = (name: unknown): unknown => (name === RECORDED_OUTPUT ? OUTPUT_TOOL : name);
  const choice = request?.['tool_choice'] as Json | undefined;
  return {
    toolChoice:
      choice?.['name'] === undefined
        ? choice
        : Object.assign({}, choice, { name: rename(choice['name']) }),
    tools: ((request?.['tools'] ?? []) as Json[]).map((tool) => rename(tool['name'])),
  };
};

/** Whether a block is a call of pydantic-ai's output tool. */
const isOutputCall = (block: Json): boolean =>
  block['type'] === 'tool_use' && block['name'] === RECORDED_OUTPUT;

/**
 * The recording with pydantic-ai's output tool made the prompt's output (it
 * is no tool of the prompt): `served` names its calls as the adapter's
 * output tool; `offered` (what the prompt's tools are built from) drops it
 * from the requests' tools and its calls from the responses.
 */
function asOutputTool(recording: AnthropicRecording, served: boolean): AnthropicRecording {
  return {
    name: recording.name,
    exchanges: recording.exchanges.map(({ request, status, response }) => ({
      status,
      request:
        request === null
          ? null
          : Object.assign({}, request, {
              tools: ((request['tools'] ?? []) as Json[]).filter(
                (tool) => tool['name'] !== RECORDED_OUTPUT,
              ),
            }),
      response: Object.assign({}, response, {
        content: served
          ? blocksOf(response).map((block) =>
              isOutputCall(block) ? Object.assign({}, block, { name: OUTPUT_TOOL }) : block,
            )
          : blocksOf(response).filter((block) => !isOutputCall(block)),
      }),
    })),
  };
}

/** An output class with the recorded output tool's properties (strings as `@IsString()`). */
function outputClassOf(recording: AnthropicRecording): DataClass | undefined {
  const tools = (recording.exchanges[0]?.request?.['tools'] ?? []) as Json[];
  const tool = tools.find((entry) => entry['name'] === RECORDED_OUTPUT);
  if (tool === undefined) return undefined;
  const properties = ((tool['input_schema'] as Json)['properties'] ?? {}) as Record<string, Json>;
  const cls = class RecordedOutput {};
  for (const [key, property] of Object.entries(properties)) {
    (property['type'] === 'string' ? IsString() : Allow())(cls.prototype, key);
  }
  return cls;
}

/**
 * The evaluation's tool choice, from the recorded first request. pydantic-ai
 * forces its output tool where function tools are off and an output is
 * asked for (`none_with_output`): that is `none` with an output here.
 */
function matrixChoice(recording: AnthropicRecording): ToolChoice {
  const choice = recording.exchanges[0]?.request?.['tool_choice'] as Json | undefined;
  if (choice?.['type'] === 'tool' && choice['name'] === RECORDED_OUTPUT) return 'none';
  return recordedToolChoice(recording);
}

describe(AnthropicAdapter, () => {
  let harness: AnthropicHarness | undefined;

  afterEach(async () => {
    if (harness === undefined) return;
    const { server } = harness;
    harness = undefined;
    await server.close();
    expect(server.problems()).toEqual([]);
    expect(server.pending).toBe(0);
  });

  describe('.request (replaying every recorded payload)', () => {
    const recordings = [...jsonRecordings(), ...cassetteRecordings()];

    it('should find every recording', () => {
      expect(recordings).toHaveLength(12 + 4);
    });

    it.each(recordings.map((recording) => [recording.name, recording] as const))(
      'should replay %s',
      async (_name, recording: AnthropicRecording) => {
        const first = recording.exchanges[0]!.request;
        const thinking = first?.['thinking'] as Json | undefined;
        const started = await startAnthropic(
          thinking === undefined
            ? {}
            : {
                maxTokens: first!['max_tokens'] as number,
                thinking: { budgetTokens: thinking['budget_tokens'] as number },
              },
        );
        harness = started;
        const log: ReplayLog = [];
        const session = new Session();
        const run = evaluationRun(recording);
        for (const exchange of run)
          started.server.reply({ status: exchange.status, json: exchange.response });
        if (clientCalls(run.at(-1)!.response).length > 0) {
          started.server.reply({ json: messageBody({ text: 'Closing answer (synthetic).' }) });
        }
        const evaluation = started.runtime.evaluate(replayPrompt(recording, log), {
          session,
          input: recordedInput(recording),
          toolChoice: recordedToolChoice(recording),
        });

        if (run[0]!.response['stop_reason'] === 'refusal') {
          const error = await catchRejection(PromptEvaluationError, () => evaluation);
          expect(error.message).toContain('The model refused to answer');
          return;
        }
        const response = await evaluation;

        // Client calls dispatched to the matching tools, in order, with the recorded input.
        const calls = run.flatMap((exchange) => clientCalls(exchange.response));
        const invoked = session.slice(ToolInvoked).all();
        expect(
          invoked.filter((event) => !event.native).map((event) => [event.callId, event.outcome]),
        ).toEqual(calls.map((call) => [call['id'], 'success']));
        expect(
          log.map(([name, params]) => [name, params === undefined ? {} : { ...(params as Json) }]),
        ).toEqual(calls.map((call) => [call['name'], call['input']]));
        // Server tool calls recorded as native events, never run here.
        const servers = run.flatMap((exchange) => serverCalls(exchange.response));
        expect(invoked.filter((event) => event.native).map((event) => event.callId)).toEqual(
          servers.map((call) => call['id']),
        );
        // Each follow-up sends the recorded answer back unchanged, then one result per call.
        run.slice(0, -1).forEach((exchange, index) => {
          const sent = started.server.requests[index + 1]!.body['messages'] as Json[];
          expect(sent.at(-2)).toEqual({ role: 'assistant', content: exchange.response['content'] });
          expect(blocksOf(sent.at(-1)).map((block) => block['tool_use_id'])).toEqual(
            clientCalls(exchange.response).map((call) => call['id']),
          );
          const recorded = run[index + 1]!.request;
          if (recorded !== null)
            expect(shape(started.server.requests[index + 1]!.body)).toEqual(shape(recorded));
        });
        if (calls.length === 0) {
          const texts = blocksOf(run[0]!.response)
            .filter((block) => block['type'] === 'text')
            .map((block) => block['text'] as string);
          expect(response.text).toBe(texts.join(''));
        }
      },
    );
  });

  describe('.request (the tool-choice matrix)', () => {
    const recordings = cassetteRecordings('pydantic-ai/tool-choice-matrix');

    it('should find the six Anthropic cassettes of the matrix', () => {
      expect(recordings).toHaveLength(6);
    });

    it.each(recordings.map((recording) => [recording.name, recording] as const))(
      'should replay %s with the recorded tool choice',
      async (_name, recorded: AnthropicRecording) => {
        const output = outputClassOf(recorded);
        const recording = output === undefined ? recorded : asOutputTool(recorded, true);
        const offered = output === undefined ? recorded : asOutputTool(recorded, false);
        const started = await startAnthropic(
          output === undefined ? {} : { structuredOutput: 'tool' },
        );
        harness = started;
        const { server } = started;
        const log: ReplayLog = [];
        const session = new Session();
        const run = evaluationRun(recording);
        for (const exchange of run)
          server.reply({ status: exchange.status, json: exchange.response });
        const calls = run
          .flatMap((exchange) => clientCalls(exchange.response))
          .filter((call) => call['name'] !== OUTPUT_TOOL);
        const answered = clientCalls(run.at(-1)!.response).some(
          (call) => call['name'] === OUTPUT_TOOL,
        );
        const closing = !answered && clientCalls(run.at(-1)!.response).length > 0;
        if (closing) server.reply({ json: messageBody({ text: 'Closing answer (synthetic).' }) });

        const response = await started.runtime.evaluate(replayPrompt(offered, log, output), {
          session,
          input: recordedInput(recording),
          toolChoice: matrixChoice(recorded),
        });

        // The first request: the recorded tool_choice (disable_parallel_tool_use included) and tools.
        const first = server.requests[0]!.body;
        const sent = {
          toolChoice: first['tool_choice'],
          tools: (first['tools'] as Json[]).map((tool) => tool['name']),
        };
        expect(sent).toEqual(wireOf(recorded.exchanges[0]!.request));
        // Recorded client calls dispatched to the matching tools with the recorded input.
        expect(
          session
            .slice(ToolInvoked)
            .all()
            .map((event) => [event.name, event.callId, event.outcome]),
        ).toEqual(calls.map((call) => [call['name'], call['id'], 'success']));
        expect(
          log.map(([tool, params]) => [tool, params === undefined ? {} : { ...(params as Json) }]),
        ).toEqual(calls.map((call) => [call['name'], call['input']]));
        // Recorded follow-ups: same conversation shape, tool_choice and tools.
        expect(server.requests).toHaveLength(run.length + (closing ? 1 : 0));
        run.slice(1).forEach((exchange, index) => {
          const body = server.requests[index + 1]!.body;
          expect((body['messages'] as Json[]).at(-2)).toEqual({
            role: 'assistant',
            content: run[index]!.response['content'],
          });
          if (exchange.request === null) return;
          expect(shape(body)).toEqual(shape(exchange.request));
          expect({
            toolChoice: body['tool_choice'],
            tools: (body['tools'] as Json[]).map((tool) => tool['name']),
          }).toEqual(wireOf(recorded.exchanges[index + 1]!.request));
        });
        // The answer: the output tool's input as the output, else the recorded text.
        const last = run.at(-1)!.response;
        if (answered) {
          const input = clientCalls(last).find((call) => call['name'] === OUTPUT_TOOL)!['input'];
          expect(response.output).toBeInstanceOf(output!);
          expect({ ...(response.output as Json) }).toEqual(input);
        } else if (!closing) {
          expect(response.text).toBe(
            blocksOf(last)
              .filter((block) => block['type'] === 'text')
              .map((block) => block['text'] as string)
              .join(''),
          );
        }
      },
    );
  });
});
