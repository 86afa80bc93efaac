import type { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import { canonicalJson } from '../../prompt/overrides/prompt-descriptor.js';
import type { EvaluationState, SavedToolCall } from './evaluation-state.js';

/**
 * Checks that what a resumed state will run is what the approver saw and
 * what the model asked for (docs/guide/policies-and-approvals.md): each pending call (what the
 * approver was shown) is a call of `remaining` with the same name and
 * arguments, each call of `remaining` is one the model sent in the paused
 * turn (the conversation's last assistant message), and every earlier
 * decision is for a remaining call. The signature already covers this; the
 * check also holds for a state accepted unsigned (`unsignedStates`). @internal
 * @throws EvaluationStateError (made by `refuse`) naming the call that differs.
 */
export function checkSavedCalls(
  state: EvaluationState,
  refuse: (problem: string, fix: string) => EvaluationStateError,
): void {
  const fix =
    'Resume the state exactly as the interrupted response returned it; to change a call, reject it with a message instead.';
  const remaining = byCallId(state.remaining, 'remaining', refuse, fix);
  for (const pending of state.pending) {
    const id = String((pending as { callId?: unknown } | null)?.callId);
    const call = remaining.get(id);
    if (call === undefined || !sameCall(call, pending)) {
      throw refuse(
        `call '${id}' is not in remaining as the pending call the approver saw (same tool and arguments): the state would run something other than what was approved.`,
        fix,
      );
    }
  }
  const sent = byCallId(lastToolCalls(state), 'the conversation', refuse, fix);
  for (const [id, call] of remaining) {
    const asked = sent.get(id);
    if (asked === undefined || !sameCall(asked, call)) {
      throw refuse(
        `call '${id}' of remaining is not the call the model sent in the conversation (its last assistant message): the state would run a call the model never made.`,
        fix,
      );
    }
  }
  for (const decision of state.decided) {
    if (!remaining.has(decision.callId)) {
      throw refuse(
        `the earlier decision for call '${decision.callId}' names no remaining call.`,
        fix,
      );
    }
  }
}

/** The tool calls of the conversation's last assistant message (the paused turn's). */
function lastToolCalls(state: EvaluationState): readonly SavedToolCall[] {
  for (let index = state.messages.length - 1; index >= 0; index -= 1) {
    const message = state.messages[index];
    if (message?.role === 'assistant') return message.toolCalls;
  }
  return [];
}

/** The calls of `list` by id; refuses a list that is not one of calls with distinct ids. */
function byCallId(
  list: readonly SavedToolCall[],
  where: string,
  refuse: (problem: string, fix: string) => EvaluationStateError,
  fix: string,
): Map<string, SavedToolCall> {
  const calls = new Map<string, SavedToolCall>();
  for (const call of list as readonly unknown[]) {
    const entry = call as Partial<SavedToolCall> | null;
    if (typeof entry?.callId !== 'string' || typeof entry.name !== 'string') {
      throw refuse(`a call in ${where} has no callId or name.`, fix);
    }
    if (calls.has(entry.callId)) {
      throw refuse(`call '${entry.callId}' appears twice in ${where}.`, fix);
    }
    calls.set(entry.callId, entry as SavedToolCall);
  }
  return calls;
}

function sameCall(
  a: SavedToolCall,
  b: { readonly name?: unknown; readonly arguments?: unknown },
): boolean {
  return a.name === b.name && canonicalJson(a.arguments) === canonicalJson(b.arguments);
}
