import { type EvaluationState, type PromptResponse, Session } from '../index.js';
import type { AdapterConformanceCheck } from './adapter-harness.js';
import { type ConformancePrompts, conformancePrompts } from './conformance-prompts.js';
import {
  type CheckRun,
  conformanceFailure,
  defineCheck,
  expectSame,
  freshRuntime,
  succeeded,
  withAdapter,
} from './conformance-support.js';

const KEEP_ITEMS =
  'keep ProviderTurn.providerItems plain JSON (what the provider sent), and rebuild the request from ' +
  'ProviderRequest.messages alone: a resumed evaluation has only what its saved state held.';

/** Evaluates the approval prompt until it pauses at the echo call; returns the state as JSON text. */
async function pause(
  run: CheckRun,
  prompts: ConformancePrompts,
  session: Session,
): Promise<string> {
  const first = [
    {
      text: 'Adding, then echoing.',
      toolCalls: [
        { callId: 'call_add_1', name: 'add', arguments: { a: 2, b: 3 } },
        { callId: 'call_echo_1', name: 'echo', arguments: { text: 'ping' } },
      ],
    },
  ];
  return await withAdapter(run, first, {}, async (opened) => {
    const paused = await succeeded(
      run,
      freshRuntime().evaluate(prompts.approval, { adapter: opened.adapter, session, input: 'Go.' }),
    );
    if (paused.status !== 'interrupted') {
      throw conformanceFailure(
        run,
        'the evaluation did not pause for the echo call that needs approval.',
        'read every tool call of the answer into ProviderTurn.toolCalls.',
      );
    }
    return JSON.stringify(paused.interruption.state);
  });
}

const pauseAndResume = defineCheck(
  'pauses for approval and resumes from its saved JSON state with a fresh adapter, as if it had never stopped',
  async (run) => {
    const prompts = conformancePrompts();
    const session = new Session();
    const saved = await pause(run, prompts, session);
    // Another process: a fresh runtime and a fresh adapter, the state read back from JSON.
    await withAdapter(run, [{ text: 'Added and echoed.' }], {}, async (opened) => {
      const done: PromptResponse = await succeeded(
        run,
        freshRuntime().resume(
          prompts.approval,
          JSON.parse(saved) as EvaluationState,
          [{ callId: 'call_echo_1', approved: true }],
          { adapter: opened.adapter, session },
        ),
      );
      expectSame(
        run,
        'the calls recorded across the pause as [callId, name, outcome]',
        done.toolCalls.map((call) => [call.event.callId, call.event.name, call.event.outcome]),
        [
          ['call_add_1', 'add', 'success'],
          ['call_echo_1', 'echo', 'success'],
        ],
        KEEP_ITEMS,
      );
      const ran = ['call_add_1', 'call_echo_1'];
      expectSame(run, 'the call ids the handlers ran', prompts.dispatched, ran, KEEP_ITEMS);
      const request = opened.requests()[0];
      expectSame(
        run,
        'the tool results the first request after the resume carried',
        request === undefined ? [] : run.harness.toolResultsOf(request),
        done.toolCalls.map((call) => ({ callId: call.call.callId, content: call.message })),
        KEEP_ITEMS,
      );
      expectSame(run, 'the final text', done.text, 'Added and echoed.', KEEP_ITEMS);
    });
  },
);

/** The checks of pausing for approval and resuming. @internal */
export const approvalChecks: readonly AdapterConformanceCheck[] = [pauseAndResume];
