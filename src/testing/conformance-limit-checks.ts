import {
  Budget,
  Deadline,
  type EvaluationStreamPart,
  type PromptEvaluationError,
  Session,
  ToolInvoked,
} from '../index.js';
import type { AdapterConformanceCheck } from './adapter-harness.js';
import { conformancePrompts } from './conformance-prompts.js';
import {
  type CheckRun,
  conformanceFailure,
  defineCheck,
  expectPhase,
  expectSame,
  freshRuntime,
  stoppedIn,
  untilRequests,
  withAdapter,
} from './conformance-support.js';
import { ManualClock } from './manual-clock.js';

const PASS_THE_SIGNAL =
  "pass ProviderRequest.signal to the provider's client (or stop reading when it aborts) and let the " +
  'rejection propagate; the runtime names the deadline or the cancellation.';

/** Throws unless the error's message matches `pattern`. */
function expectMessage(
  run: CheckRun,
  error: PromptEvaluationError,
  pattern: RegExp,
  what: string,
): void {
  if (pattern.test(error.message)) return;
  throw conformanceFailure(
    run,
    `expected the error to name ${what} (${String(pattern)}), got: ${error.message}`,
    PASS_THE_SIGNAL,
    error,
  );
}

const budget = defineCheck(
  'stops with a budget error when a response goes over the budget',
  async (run) => {
    const script = [
      {
        toolCalls: [{ callId: 'call_add', name: 'add', arguments: { a: 1, b: 2 } }],
        usage: { inputTokens: 80, outputTokens: 30 },
      },
    ];
    const { tools, dispatched } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const running = freshRuntime().evaluate(tools, {
        adapter: opened.adapter,
        budget: new Budget({ maxTotalTokens: 100 }),
      });
      const fix = "return each request's own token counts as ProviderTurn.usage.";
      const error = await stoppedIn(run, running, 'budget', fix);
      expectMessage(run, error, /totalTokens/, 'the exceeded dimension');
      expectSame(run, 'the handlers that ran after the budget was exceeded', dispatched, [], fix);
      expectSame(run, 'the number of requests', opened.requests().length, 1, fix);
    });
  },
);

const deadline = defineCheck('stops at the deadline while the provider hangs', async (run) => {
  const script = [
    { toolCalls: [{ callId: 'call_echo', name: 'echo', arguments: { text: 'hi' } }] },
  ];
  const { tools } = conformancePrompts();
  await withAdapter(run, script, { hang: true }, async (opened) => {
    const clock = new ManualClock();
    const session = new Session();
    const running = freshRuntime().evaluate(tools, {
      adapter: opened.adapter,
      session,
      deadline: Deadline.in(5_000, { clock }),
    });
    await untilRequests(run, opened, 2, running);
    clock.advance(5_000);
    const error = await stoppedIn(run, running, 'request', PASS_THE_SIGNAL);
    expectMessage(run, error, /deadline/i, 'the deadline');
    expectSame(
      run,
      'the calls recorded before the deadline',
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.callId, event.outcome]),
      [['call_echo', 'success']],
      'read the tool call of the first answer into ProviderTurn.toolCalls.',
    );
  });
});

const cancellation = defineCheck(
  "stops when the caller's signal aborts while the provider hangs",
  async (run) => {
    const { tools } = conformancePrompts();
    await withAdapter(run, [], { hang: true }, async (opened) => {
      const controller = new AbortController();
      const running = freshRuntime().evaluate(tools, {
        adapter: opened.adapter,
        signal: controller.signal,
      });
      await untilRequests(run, opened, 1, running);
      controller.abort();
      const error = await stoppedIn(run, running, 'request', PASS_THE_SIGNAL);
      expectMessage(run, error, /cancel/i, 'the cancellation');
    });
  },
);

/** Reads a stream to its end. */
async function collect(
  stream: AsyncIterable<EvaluationStreamPart>,
): Promise<EvaluationStreamPart[]> {
  const parts: EvaluationStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const streamCancellation = defineCheck(
  "stops a streamed evaluation when the caller's signal aborts while the provider hangs",
  async (run) => {
    const { tools } = conformancePrompts();
    await withAdapter(run, [], { hang: true }, async (opened) => {
      const controller = new AbortController();
      const stream = freshRuntime().stream(tools, {
        adapter: opened.adapter,
        signal: controller.signal,
      });
      const reading = collect(stream);
      await untilRequests(run, opened, 1, reading);
      controller.abort();
      const parts = await reading;
      const last = parts.at(-1);
      if (last?.type !== 'error') {
        throw conformanceFailure(
          run,
          `expected the stream to end with an 'error' part, got ${parts.map((part) => part.type).join(', ')}.`,
          PASS_THE_SIGNAL,
        );
      }
      const error = expectPhase(run, last.error, 'request', PASS_THE_SIGNAL);
      expectMessage(run, error, /cancel/i, 'the cancellation');
    });
  },
);

/** The checks of the limits: budget, deadline, cancellation of an evaluation and of a stream. */
export const limitChecks: readonly AdapterConformanceCheck[] = [
  budget,
  deadline,
  cancellation,
  streamCancellation,
];
