import type { AdapterConformanceCheck } from './adapter-harness.js';
import { answerChecks } from './conformance-answer-checks.js';
import { approvalChecks } from './conformance-approval-checks.js';
import { limitChecks } from './conformance-limit-checks.js';
import { loopChecks } from './conformance-loop-checks.js';
import { streamChecks } from './conformance-stream-checks.js';

/**
 * The checks every provider adapter must pass, each a real evaluation through
 * the runtime against the adapter an {@link AdapterHarness} opens: the seam
 * version; a tool loop with parallel calls (dispatch order, results fed back
 * under their call ids); the failure table (unknown tool, malformed and
 * invalid arguments, a throwing handler: failed results the model reads, the
 * evaluation goes on); structured output; usage summed over turns; a budget
 * exceeded (phase `budget`); the deadline passing while the provider hangs
 * (phase `request`, naming the deadline); cancellation through the caller's
 * signal while the provider hangs, evaluated and streamed; and streaming
 * parity (`runtime.stream` records what `runtime.evaluate` records, and its
 * deltas add up to the turn); and a pause for approval resumed from its
 * JSON state with a fresh adapter (the conversation rebuilt from the saved
 * messages alone); and an answer over `maxAnswerChars` refused by the adapter
 * itself when whole (never returned) and ending a stream with an error naming
 * the limit. A check rejects with an `Error` saying what was
 * expected, what came, and what to change. They need no test runner:
 *
 * @example
 * for (const check of adapterConformanceChecks) {
 *   it(check.name, () => check.run(harness));
 * }
 */
export const adapterConformanceChecks: readonly AdapterConformanceCheck[] = Object.freeze([
  ...loopChecks,
  ...limitChecks,
  ...answerChecks,
  ...streamChecks,
  ...approvalChecks,
]);
