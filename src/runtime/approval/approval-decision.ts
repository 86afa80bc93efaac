/**
 * A person's answer for one pending call, passed to `runtime.resume`:
 * approve it (it runs as if it had never waited) or reject it (it fails with
 * outcome `denied`, and the model reads `message`).
 *
 * @example [{ callId: 'call_1', approved: true }, { callId: 'call_2', approved: false, message: 'Refunds over $500 need a manager.' }]
 */
export interface ApprovalDecision {
  /** The pending call's id (`PendingToolCall.callId`). */
  readonly callId: string;
  /** Whether the call may run. */
  readonly approved: boolean;
  /**
   * For a rejection: what the model reads, e.g. why and what to do instead.
   * Text of at most 8,000 characters, as every failed result the model reads.
   */
  readonly message?: string | undefined;
}
