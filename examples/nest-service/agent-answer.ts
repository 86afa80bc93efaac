import type { Refund } from './refund-desk.js';
import type { SupportReply } from './support-prompt.js';
import type { Ticket } from './ticket-desk.js';

/** One tool call of the agent, as `POST /agent` reports it. */
export interface ToolCallSummary {
  readonly tool: string;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
  /** `denied` for a call a person rejected (or a policy refused). */
  readonly outcome: 'success' | 'failure' | 'denied';
  /** What the tool told the model. */
  readonly message: string;
}

/**
 * The body `POST /agent` (and an approval that lets the agent finish)
 * answers with, status 200: the reply, what the agent did, and what it cost.
 */
export interface AgentAnswer {
  readonly status: 'answered';
  readonly reply: SupportReply;
  /** Every tool call of the evaluation, across pauses for approval. */
  readonly toolCalls: readonly ToolCallSummary[];
  /** Tickets the agent opened for this request's customer. */
  readonly tickets: readonly Ticket[];
  /** Refunds the agent issued. */
  readonly refunds: readonly Refund[];
  /** Model requests made (across pauses). */
  readonly turns: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** Time this HTTP request took. */
  readonly durationMs: number;
}

/** A tool call waiting for a person, as the 202 answer lists it. */
export interface PendingCallView {
  /** Decide the call by this id. */
  readonly callId: string;
  readonly tool: string;
  /** The validated params. */
  readonly params: unknown;
  /** Why it needs approval. */
  readonly reason: string;
}

/**
 * The body of a 202 answer: the agent paused until a person decides the
 * pending calls; send the decisions to `POST /agent/approvals/:stateId`.
 */
export interface PendingApproval {
  readonly status: 'pending';
  readonly stateId: string;
  readonly pending: readonly PendingCallView[];
}

/** What `POST /agent` and `POST /agent/approvals/:stateId` answer: 200 or 202. */
export type AgentReply = AgentAnswer | PendingApproval;
