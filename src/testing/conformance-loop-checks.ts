import { PromptExecuted, type PromptResponse, Session, ToolInvoked } from '../index.js';
import { PROVIDER_SEAM_VERSION } from '../provider/index.js';
import type { AdapterConformanceCheck, AdapterUnderTest } from './adapter-harness.js';
import { ConformanceForecast, conformancePrompts } from './conformance-prompts.js';
import {
  type CheckRun,
  conformanceFailure,
  defineCheck,
  expectSame,
  freshRuntime,
  show,
  succeeded,
  withAdapter,
} from './conformance-support.js';
import type { ScriptedToolCall, ScriptedTurn } from './scripted-adapter.js';

const READ_EVERY_CALL =
  "read every tool call of the provider's answer into ProviderTurn.toolCalls, in the provider's order, " +
  "each with the provider's call id, its name and its arguments as sent.";
const SEND_EVERY_RESULT =
  "send every 'tool' message of ProviderRequest.messages to the provider, in order, under its callId, " +
  'with its content unchanged.';

/** The calls a response made, as `[callId, name, outcome]`. */
const outcomesOf = (response: PromptResponse): [string | undefined, string, string][] =>
  response.toolCalls.map((call) => [call.event.callId, call.event.name, call.event.outcome]);

/** What the runtime sent back for each call: its call id and the message the model reads. */
const resultsOf = (response: PromptResponse) =>
  response.toolCalls.map((call) => ({ callId: call.call.callId, content: call.message }));

/** Checks that request `index` (from 0) carried back exactly `expected` tool results. */
function expectFedBack(
  run: CheckRun,
  opened: AdapterUnderTest,
  index: number,
  expected: readonly { callId: string; content: string }[],
): void {
  const request = opened.requests()[index];
  if (request === undefined) {
    throw conformanceFailure(
      run,
      `expected request ${index + 1} to reach the provider, but only ${opened.requests().length} did.`,
      'keep the conversation going: the runtime asks again after every turn with tool calls.',
    );
  }
  expectSame(
    run,
    `tool results carried by request ${index + 1}`,
    run.harness.toolResultsOf(request),
    expected,
    SEND_EVERY_RESULT,
  );
}

const seamVersion = defineCheck('declares the provider seam version this build speaks', (run) =>
  withAdapter(run, [], {}, (opened) => {
    expectSame(
      run,
      'capabilities.seamVersion',
      opened.adapter.capabilities.seamVersion,
      PROVIDER_SEAM_VERSION,
      'declare capabilities with providerCapabilities({ ... }) from affordance/provider, which fills in the seam version.',
    );
    return Promise.resolve();
  }),
);

const add = (callId: string, a: number, b: number): ScriptedToolCall => ({
  callId,
  name: 'add',
  arguments: { a, b },
});

const toolLoop = defineCheck(
  'runs a tool loop: parallel calls in order, each result fed back under its call id',
  async (run) => {
    const echo = { callId: 'call_echo_1', name: 'echo', arguments: { text: 'ping' } };
    const script: ScriptedTurn[] = [
      { text: 'Adding and echoing.', toolCalls: [add('call_add_1', 2, 3), echo] },
      { toolCalls: [add('call_add_2', 5, 8)] },
      { text: 'The sums are 5 and 13.' },
    ];
    const { tools, dispatched } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const response = await succeeded(
        run,
        freshRuntime().evaluate(tools, { adapter: opened.adapter, input: 'Go.' }),
      );
      expectSame(
        run,
        'the calls recorded as [callId, name, outcome]',
        outcomesOf(response),
        [
          ['call_add_1', 'add', 'success'],
          ['call_echo_1', 'echo', 'success'],
          ['call_add_2', 'add', 'success'],
        ],
        READ_EVERY_CALL,
      );
      expectSame(
        run,
        'the call ids the handlers ran, in order',
        dispatched,
        ['call_add_1', 'call_echo_1', 'call_add_2'],
        READ_EVERY_CALL,
      );
      expectSame(
        run,
        'the decoded arguments',
        response.toolCalls.map((call) => call.event.params),
        [{ a: 2, b: 3 }, { text: 'ping' }, { a: 5, b: 8 }],
        "pass each call's arguments on exactly as the provider sent them (JSON text or a decoded object).",
      );
      expectSame(
        run,
        'the final text',
        response.text,
        'The sums are 5 and 13.',
        'return the assistant text of the answer as ProviderTurn.text.',
      );
      expectSame(
        run,
        'the number of requests',
        opened.requests().length,
        3,
        'answer each request with one ProviderTurn.',
      );
      const results = resultsOf(response);
      expectFedBack(run, opened, 1, results.slice(0, 2));
      expectFedBack(run, opened, 2, results);
    });
  },
);

const failureTable = defineCheck(
  'feeds every tool failure back to the model and carries on',
  async (run) => {
    const calls: ScriptedToolCall[] = [
      { callId: 'call_unknown', name: 'teleport', arguments: { to: 'moon' } },
      { callId: 'call_malformed', name: 'add', arguments: '{"a": 2, "b":' },
      { callId: 'call_invalid', name: 'add', arguments: { a: 'two', b: 3 } },
      { callId: 'call_throws', name: 'explode', arguments: { text: 'boom' } },
    ];
    const script: ScriptedTurn[] = [{ toolCalls: calls }, { text: 'Four failures read.' }];
    const { tools, dispatched } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const response = await succeeded(
        run,
        freshRuntime().evaluate(tools, { adapter: opened.adapter, input: 'Go.' }),
      );
      expectSame(
        run,
        'the calls recorded as [callId, name, outcome]',
        outcomesOf(response),
        calls.map((call) => [call.callId, call.name, 'failure']),
        READ_EVERY_CALL +
          ' Pass unknown names and malformed arguments through: the runtime reports them.',
      );
      const expectedStarts = [
        "Unknown tool 'teleport'",
        'Tool validation failed',
        'Tool validation failed',
        "Tool 'explode' execution failed",
      ];
      const messages = response.toolCalls.map((call) => call.message);
      if (!expectedStarts.every((start, index) => messages[index]?.startsWith(start) === true)) {
        throw conformanceFailure(
          run,
          `the messages the model reads should start with ${show(expectedStarts)}, got ${show(messages)}.`,
          'pass the tool name and the raw arguments through unchanged; never repair or drop them.',
        );
      }
      expectSame(run, 'the handlers that ran', dispatched, ['call_throws'], READ_EVERY_CALL);
      expectSame(
        run,
        'the final text',
        response.text,
        'Four failures read.',
        'return the assistant text of the answer as ProviderTurn.text.',
      );
      expectFedBack(run, opened, 1, resultsOf(response));
    });
  },
);

const structuredOutput = defineCheck(
  'parses a structured answer into the output class',
  async (run) => {
    const answer = { city: 'Oslo', temperature: 21 };
    const { forecast } = conformancePrompts();
    await withAdapter(run, [{ parsed: answer }], {}, async (opened) => {
      const response = await succeeded(
        run,
        freshRuntime().evaluate(forecast, { adapter: opened.adapter, input: 'Forecast?' }),
      );
      if (!(response.output instanceof ConformanceForecast)) {
        throw conformanceFailure(
          run,
          `expected the output to be a ConformanceForecast instance, got ${show(response.output)}.`,
          "return the provider's structured answer as ProviderTurn.parsed, or its JSON as ProviderTurn.text.",
        );
      }
      expectSame(
        run,
        'the parsed output',
        response.output,
        answer,
        'return the structured answer unchanged.',
      );
    });
  },
);

const usage = defineCheck(
  "reports each request's usage, summed over the evaluation",
  async (run) => {
    const script: ScriptedTurn[] = [
      { toolCalls: [add('call_add', 1, 2)], usage: { inputTokens: 10, outputTokens: 4 } },
      { text: 'Three.', usage: { inputTokens: 20, outputTokens: 9 } },
    ];
    const { tools } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const session = new Session();
      const response = await succeeded(
        run,
        freshRuntime().evaluate(tools, { adapter: opened.adapter, session }),
      );
      const counts = (
        value: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
      ) => ({
        inputTokens: value?.inputTokens,
        outputTokens: value?.outputTokens,
      });
      const fix =
        "return each request's own token counts as ProviderTurn.usage (a TokenUsage); the runtime adds them up.";
      expectSame(
        run,
        'the usage of the response',
        counts(response.usage),
        { inputTokens: 30, outputTokens: 13 },
        fix,
      );
      expectSame(
        run,
        'the usage recorded by PromptExecuted',
        counts(session.slice(PromptExecuted).latest()?.usage),
        { inputTokens: 30, outputTokens: 13 },
        fix,
      );
      expectSame(
        run,
        'the usage recorded with the tool call',
        counts(session.slice(ToolInvoked).latest()?.usage),
        { inputTokens: 10, outputTokens: 4 },
        fix,
      );
    });
  },
);

/** The checks of the evaluation loop: seam version, tool loop, failure table, structured output, usage. */
export const loopChecks: readonly AdapterConformanceCheck[] = [
  seamVersion,
  toolLoop,
  failureTable,
  structuredOutput,
  usage,
];
