import type { ApprovalDecision } from './approval/approval-decision.js';
import type { PendingToolCall } from './approval/pending-tool-call.js';
import type { EvaluateOptions } from './evaluate-options.js';
import type { ToolProgress } from './tool-context-members.js';

/** One tool call made outside the model loop, e.g. by an MCP client (see `AffordanceRuntime.callTool`). */
export interface ToolCallRequest {
  /** The tool's name, as the prompt offers it. */
  readonly name: string;
  /** The arguments: JSON text, or an already-decoded object; omit for a tool without params. */
  readonly arguments?: unknown;
  /** The call's id in its `ToolInvoked` event; a random UUID when omitted. */
  readonly callId?: string | undefined;
}

/**
 * Options of `runtime.callTool(prompt, request, options)`: the evaluation
 * options that apply to one call, and how a call that needs approval is decided.
 */
export interface CallToolOptions extends Pick<
  EvaluateOptions,
  | 'adapter'
  | 'params'
  | 'session'
  | 'deadline'
  | 'budget'
  | 'budgetTracker'
  | 'resources'
  | 'overrides'
  | 'signal'
> {
  /**
   * Decides a call that needs a person's approval (a tool's `approval` rule or
   * a policy's `requireApproval`): `true` runs it, `false` or a decision with
   * `approved: false` records it as `denied` with the decision's message.
   * Without it such a call is denied: there is no loop to pause.
   */
  readonly approve?:
    | ((
        pending: PendingToolCall,
      ) => boolean | ApprovalDecision | Promise<boolean | ApprovalDecision>)
    | undefined;
  /** Receives what the tool reports with `context.reportProgress`, as it reports it. */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
}
