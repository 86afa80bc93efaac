import type { EventRecord } from './event-record.js';
import type {
  ExportedAnswer,
  ExportedEvent,
  ExportedEventBase,
  ExportedToolCall,
  ExportedUsage,
} from './session-export.js';

type Fields = Readonly<Record<string, unknown>>;

/** A record's field as text, `fallback` when it is not a string. */
export function text(fields: Fields, key: string, fallback = ''): string {
  const value = fields[key];
  return typeof value === 'string' ? value : fallback;
}

function textOrNull(fields: Fields, key: string): string | null {
  const value = fields[key];
  return typeof value === 'string' ? value : null;
}

function numberOrNull(fields: Fields, key: string): number | null {
  const value = fields[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function objectOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

/** A recorded `TokenUsage` as {@link ExportedUsage}, `null` when none was recorded. */
export function usageOf(value: unknown): ExportedUsage | null {
  if (typeof value !== 'object' || value === null) return null;
  const fields = value as Fields;
  const input = numberOrNull(fields, 'inputTokens');
  const output = numberOrNull(fields, 'outputTokens');
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input === null && output === null ? null : (input ?? 0) + (output ?? 0),
    cachedTokens: numberOrNull(fields, 'cachedTokens'),
    reasoningTokens: numberOrNull(fields, 'reasoningTokens'),
  };
}

/** `later` minus `earlier`, count by count (`later` itself when there is nothing before it). */
export function usageDelta(
  later: ExportedUsage | null,
  earlier: ExportedUsage | null,
): ExportedUsage | null {
  if (later === null || earlier === null) return later;
  const minus = (a: number | null, b: number | null) =>
    a === null ? null : Math.max(0, a - (b ?? 0));
  return {
    inputTokens: minus(later.inputTokens, earlier.inputTokens),
    outputTokens: minus(later.outputTokens, earlier.outputTokens),
    totalTokens: minus(later.totalTokens, earlier.totalTokens),
    cachedTokens: minus(later.cachedTokens, earlier.cachedTokens),
    reasoningTokens: minus(later.reasoningTokens, earlier.reasoningTokens),
  };
}

/** Whether two usages have the same counts. */
export function sameUsage(a: ExportedUsage | null, b: ExportedUsage | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields every entry has, from a record. */
export function baseOf(record: EventRecord, seq: number): ExportedEventBase {
  const { fields } = record;
  return {
    seq,
    at: text(fields, 'createdAt', new Date(0).toISOString()),
    evaluationId: textOrNull(fields, 'evaluationId'),
    promptName: text(fields, 'promptName'),
    adapter: text(fields, 'adapter'),
  };
}

/** The message a person's rejection starts with (`runtime/policy-gate.ts`). */
const PERSON_REJECTED = 'A person rejected this call';

/**
 * The timeline entry of `record`; the turn usage of calls and answers is
 * filled in afterwards (see `buildSessionExport`).
 */
export function recordToEvent(record: EventRecord, seq: number): ExportedEvent {
  const base = baseOf(record, seq);
  const { fields } = record;
  switch (record.kind) {
    case 'PromptRendered':
      return {
        ...base,
        kind: 'prompt-rendered',
        renderedPrompt: text(fields, 'renderedPrompt'),
        renderInputs: Array.isArray(fields['renderInputs']) ? fields['renderInputs'] : [],
      };
    case 'ToolInvoked':
      return toolCallOf(base, fields);
    case 'GuardrailChecked':
      return {
        ...base,
        kind: 'guardrail',
        stage: text(fields, 'stage'),
        policy: text(fields, 'policy'),
        verdict: text(fields, 'verdict'),
        reason: textOrNull(fields, 'reason'),
        attempt: numberOrNull(fields, 'attempt'),
      };
    case 'LoopIntervention':
      return {
        ...base,
        kind: 'loop-intervention',
        action: text(fields, 'action'),
        reason: text(fields, 'reason'),
        turn: numberOrNull(fields, 'turn') ?? 0,
        message: text(fields, 'message'),
        tool: textOrNull(fields, 'tool'),
      };
    case 'PromptExecuted':
      return answerOf(base, fields);
  }
}

function toolCallOf(base: ExportedEventBase, fields: Fields): ExportedToolCall {
  const result = objectOf(fields['result']);
  const outcome = text(fields, 'outcome', 'unknown');
  const resultMessage = text(result, 'message');
  return {
    ...base,
    kind: 'tool-call',
    tool: text(fields, 'name'),
    callId: textOrNull(fields, 'callId'),
    arguments: fields['rawArguments'] ?? null,
    params: fields['params'] ?? null,
    outcome,
    message: text(fields, 'renderedMessage', resultMessage),
    resultMessage,
    value: result['value'] ?? null,
    durationMs: numberOrNull(fields, 'durationMs'),
    native: fields['native'] === true,
    nativeType: textOrNull(fields, 'nativeType'),
    attempts: Array.isArray(fields['attempts']) ? fields['attempts'] : [],
    rolledBack: outcome !== 'success',
    deniedBy:
      outcome !== 'denied' ? null : resultMessage.startsWith(PERSON_REJECTED) ? 'person' : 'policy',
    usageSoFar: usageOf(fields['usage']),
    turnUsage: null,
  };
}

function answerOf(base: ExportedEventBase, fields: Fields): ExportedAnswer {
  const result = objectOf(fields['result']);
  return {
    ...base,
    kind: 'answer',
    text: textOrNull(result, 'text'),
    output: result['output'] ?? null,
    usage: usageOf(fields['usage']),
    turnUsage: null,
    durationMs: numberOrNull(fields, 'durationMs'),
    provider: textOrNull(fields, 'provider'),
    model: textOrNull(fields, 'model'),
  };
}
