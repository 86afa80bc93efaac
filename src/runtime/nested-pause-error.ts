import type { InterruptedResponse } from './prompt-response.js';

/** Why a nested evaluation (`context.evaluate`) that paused for approval fails its enclosing call. */
export function nestedPauseError(label: string, response: InterruptedResponse): Error {
  const calls = response.interruption.pending.map((call) => `'${call.name}' (${call.reason})`);
  return new Error(
    `The nested evaluation of ${label} paused for approval of ${calls.join(', ')}; a nested evaluation cannot pause. ` +
      'Fix: put the approval rule on the outer tool that starts the nested evaluation, or evaluate this prompt at the top level.',
  );
}
