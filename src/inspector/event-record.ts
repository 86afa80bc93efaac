/** The session records an export reads, by the name of their class. */
export const RECORD_KINDS = [
  'PromptRendered',
  'GuardrailChecked',
  'ToolInvoked',
  'LoopIntervention',
  'PromptExecuted',
] as const;

/** One of {@link RECORD_KINDS}. */
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * One record of a session as plain JSON fields (read from a live session or
 * from a store), with its position in its slice. @internal
 */
export interface EventRecord {
  readonly kind: RecordKind;
  readonly fields: Readonly<Record<string, unknown>>;
  /** Its position in its slice (the order the session recorded it in). */
  readonly index: number;
}
