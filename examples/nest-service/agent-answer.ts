import type { SupportReply } from './support-prompt.js';
import type { Ticket } from './ticket-desk.js';

/** One tool call of the agent, as `POST /agent` reports it. */
export interface ToolCallSummary {
  readonly tool: string;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
  readonly outcome: 'success' | 'failure';
  /** What the tool told the model. */
  readonly message: string;
}

/** The body `POST /agent` answers with: the reply, what the agent did, and what it cost. */
export interface AgentAnswer {
  readonly reply: SupportReply;
  readonly toolCalls: readonly ToolCallSummary[];
  /** Tickets the agent opened for this request's customer. */
  readonly tickets: readonly Ticket[];
  /** Model requests made. */
  readonly turns: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly durationMs: number;
}
