/** A tool call waiting for a person's approval. */
export interface PendingToolCall {
  /** The provider's id for the call; decide it by this id. */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /**
   * The validated params: the params class instance when the evaluation paused
   * in this process, their JSON form when read back from a saved state.
   */
  readonly params: unknown;
  /** The arguments exactly as the model sent them. */
  readonly arguments: unknown;
  /** Why the call needs approval (the tool's or a policy's reason), for the approver. */
  readonly reason: string;
}
