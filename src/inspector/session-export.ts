/**
 * The JSON a session is exported as (`exportSession`, `exportStoredSession`),
 * read by the inspector page and the `affordance-inspect` command. Versioned:
 * within `version: 1` a field is only ever added, never changed or removed.
 * Every value is plain JSON (class instances as their fields, dates as ISO
 * strings, `undefined` as `null`).
 */

/** The value of {@link SessionExport.format}: what a file holding an export says it is. */
export const SESSION_EXPORT_FORMAT = 'affordance/session-export';

/** Token counts as recorded (a count the provider did not report is `null`). */
export interface ExportedUsage {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly totalTokens: number | null;
  readonly cachedTokens: number | null;
  readonly reasoningTokens: number | null;
}

/** What every timeline entry carries. */
export interface ExportedEventBase {
  /** Position in the timeline, 0 first. */
  readonly seq: number;
  /** When it happened (ISO 8601). */
  readonly at: string;
  /** The evaluation it belongs to (`null` when the record carries none). */
  readonly evaluationId: string | null;
  /** The prompt's name (`ns/key` unless it was given one). */
  readonly promptName: string;
  /** The adapter that ran the evaluation. */
  readonly adapter: string;
}

/** The prompt as rendered for an evaluation, before its first request (a `PromptRendered` record). */
export interface ExportedPromptRendered extends ExportedEventBase {
  readonly kind: 'prompt-rendered';
  /** The rendered prompt text, exactly as sent to the provider. */
  readonly renderedPrompt: string;
  /** The params objects it was rendered with. */
  readonly renderInputs: readonly unknown[];
}

/** One tool call, whatever its outcome (a `ToolInvoked` record). */
export interface ExportedToolCall extends ExportedEventBase {
  readonly kind: 'tool-call';
  readonly tool: string;
  readonly callId: string | null;
  /** The arguments exactly as the model sent them (the rejected input when they failed to parse). */
  readonly arguments: unknown;
  /** The validated params, `null` when parsing failed or the tool takes none. */
  readonly params: unknown;
  /** `success`, `failure`, `denied`, `timeout` or `unknown` (interrupted). */
  readonly outcome: string;
  /** The tool message the model read. */
  readonly message: string;
  /** The result's own message and value. */
  readonly resultMessage: string;
  readonly value: unknown;
  readonly durationMs: number | null;
  /** Whether the provider ran the tool itself, and its type then. */
  readonly native: boolean;
  readonly nativeType: string | null;
  /** Each attempt of a tool with `retry`. */
  readonly attempts: readonly unknown[];
  /**
   * Whether the call's changes to session state and resources were undone:
   * every call that did not succeed is rolled back (a read-only tool had
   * nothing to undo).
   */
  readonly rolledBack: boolean;
  /**
   * For a `denied` call: who refused it, `policy` (a tool policy or approval
   * rule that failed) or `person` (a rejected approval); `null` otherwise.
   */
  readonly deniedBy: 'policy' | 'person' | null;
  /** The evaluation's usage up to and including the turn that asked for this call. */
  readonly usageSoFar: ExportedUsage | null;
  /**
   * The usage of the turn that asked for this call, on the first recorded call
   * of that turn (`null` on the others, and when the provider reported none).
   */
  readonly turnUsage: ExportedUsage | null;
}

/** An input or answer guardrail's decision (a `GuardrailChecked` record). */
export interface ExportedGuardrail extends ExportedEventBase {
  readonly kind: 'guardrail';
  readonly stage: string;
  readonly policy: string;
  readonly verdict: string;
  readonly reason: string | null;
  readonly attempt: number | null;
}

/** The loop governor warning or stopping the model (a `LoopIntervention` record). */
export interface ExportedLoopIntervention extends ExportedEventBase {
  readonly kind: 'loop-intervention';
  readonly action: string;
  readonly reason: string;
  readonly turn: number;
  readonly message: string;
  readonly tool: string | null;
}

/** An evaluation's final answer (a `PromptExecuted` record). */
export interface ExportedAnswer extends ExportedEventBase {
  readonly kind: 'answer';
  readonly text: string | null;
  readonly output: unknown;
  /** Usage over the whole evaluation. */
  readonly usage: ExportedUsage | null;
  /** The usage of the answering turn (the whole evaluation's minus what its calls' turns had used). */
  readonly turnUsage: ExportedUsage | null;
  readonly durationMs: number | null;
  readonly provider: string | null;
  readonly model: string | null;
}

/**
 * A call that waited for a person's approval, from `ExportSessionOptions.approvals`
 * (the session itself does not record the pause), placed before the call's record.
 */
export interface ExportedApproval extends ExportedEventBase {
  readonly kind: 'approval';
  readonly callId: string;
  readonly tool: string;
  readonly arguments: unknown;
  /** Why it needed approval. */
  readonly reason: string;
  /** `approved`, `rejected`, or `pending` when no decision was given. */
  readonly decision: 'approved' | 'rejected' | 'pending';
  /** A rejection's message. */
  readonly message: string | null;
}

/** One entry of the timeline. */
export type ExportedEvent =
  | ExportedPromptRendered
  | ExportedToolCall
  | ExportedGuardrail
  | ExportedLoopIntervention
  | ExportedAnswer
  | ExportedApproval;

/** One evaluation of the session, summed up from its records. */
export interface ExportedEvaluation {
  readonly evaluationId: string | null;
  readonly promptName: string;
  readonly adapter: string;
  /** The first and last record's times. */
  readonly startedAt: string;
  readonly endedAt: string;
  /** `answered` when its answer is recorded, else `unfinished` (paused, failed or still running). */
  readonly status: 'answered' | 'unfinished';
  readonly toolCalls: number;
  readonly failedCalls: number;
  readonly usage: ExportedUsage | null;
  readonly durationMs: number | null;
}

/** A session's records, in time order, as plain versioned JSON. */
export interface SessionExport {
  /** Always {@link SESSION_EXPORT_FORMAT}. */
  readonly format: typeof SESSION_EXPORT_FORMAT;
  /** The schema version: 1. */
  readonly version: 1;
  readonly sessionId: string;
  /** When the session started (ISO 8601). */
  readonly createdAt: string;
  /** When this export was made (ISO 8601). */
  readonly exportedAt: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly evaluations: readonly ExportedEvaluation[];
  readonly events: readonly ExportedEvent[];
  /** What a session does not record, so the timeline cannot show it. */
  readonly notRecorded: readonly string[];
}
