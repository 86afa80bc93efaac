import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';

/**
 * A write (to a session, or to a filesystem), a nested state-changing call or
 * a nested evaluation's next request came from a tool call whose changes were
 * already rolled back: the call was interrupted by a deadline or
 * a cancellation, or it failed, and its handler went on running. The write is
 * refused so that the rolled-back changes cannot reappear. Thrown inside the
 * handler's own code; the evaluation has already moved on.
 */
export class ToolCallClosedError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'tool_call_closed';

  /** The call, as `tool 'name' (call id)`. */
  readonly call: string;

  constructor(call: string, reason: string, action: string) {
    super(
      'tool_call_closed',
      `${call}: refused ${action}: the call ${reason} and its changes were rolled back. ` +
        'Fix: stop work when context.signal aborts (check context.signal.aborted, or pass the signal to what you await), and do not write after a handler has returned.',
    );
    this.call = call;
  }
}
