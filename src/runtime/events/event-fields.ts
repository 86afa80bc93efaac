import { types } from 'node:util';

import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { boundText } from '../../core/errors/bound-text.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import type { PromptEventInit } from './prompt-event.js';
import type { ToolInvokedInit } from './tool-invoked.js';
import { ToolResult } from '../../tools/tool-result.js';
import { cloneValue } from '../../core/clone-value.js';

/** The most characters of a failed result's text that the model reads; the rest is cut with a marker. */
export const MAX_FAILURE_TEXT_LENGTH = 8_000;

/** The prompt, adapter, session and evaluation fields every event of an evaluation carries. @internal */
export function evaluationEventFields(scope: EvaluationScope): PromptEventInit {
  return {
    promptName: scope.prompt.name,
    promptNs: scope.prompt.ns,
    promptKey: scope.prompt.key,
    adapter: scope.adapter.name,
    sessionId: scope.session.sessionId,
    evaluationId: scope.evaluationId,
  };
}

/** What one call's `ToolInvoked` records besides the evaluation's fields. @internal */
export type CallFields = Omit<ToolInvokedInit, keyof PromptEventInit>;

/**
 * The `ToolInvoked` init of one call: the evaluation's fields and the call's,
 * every field listed (a literal that starts with a spread costs about 1 µs per
 * following property on Node 20, and this runs for every call). @internal
 */
export function toolInvokedInit(scope: EvaluationScope, call: CallFields): ToolInvokedInit {
  return {
    promptName: scope.prompt.name,
    promptNs: scope.prompt.ns,
    promptKey: scope.prompt.key,
    adapter: scope.adapter.name,
    sessionId: scope.session.sessionId,
    evaluationId: scope.evaluationId,
    name: call.name,
    callId: call.callId,
    params: call.params,
    rawArguments: call.rawArguments,
    result: call.result,
    renderedMessage: call.renderedMessage,
    native: call.native,
    outcome: call.outcome,
    durationMs: call.durationMs,
    usage: call.usage,
    attempts: call.attempts,
    nativeType: call.nativeType,
  };
}

/**
 * The result as the session records it: the session freezes what it stores, so
 * the value is a copy wherever a copy is faithful (see `cloneValue`) and the
 * application's own plain objects are never frozen. @internal
 */
export function resultForSession(result: ToolResult): ToolResult {
  // Nothing to copy in a primitive value: the result is recorded as it is.
  if (typeof result.value !== 'object' || result.value === null) return result;
  return new ToolResult({
    message: result.message,
    value: cloneValue(result.value),
    success: result.success,
    excludeValueFromContext: result.excludeValueFromContext,
    // Media parts are frozen and shared, never copied: the record refers to the same bytes.
    parts: result.parts,
  });
}

/**
 * What the model reads for `result`: `toModelText()` of the result the handler
 * returned, a note instead of the value when rendering it throws, and a failed
 * result's text cut to {@link MAX_FAILURE_TEXT_LENGTH}. Never throws. A copy
 * (`recorded`, what the session records) is rendered instead only where the
 * two render alike without running any code: see {@link flatRecordText}. @internal
 */
export function modelTextOf(result: ToolResult, recorded?: ToolResult): string {
  const flat = recorded === undefined ? undefined : flatRecordText(result, recorded);
  if (flat !== undefined) return flat;
  let text: string;
  try {
    text = result.toModelText();
  } catch (error) {
    text = `${result.message}\n\n[The value could not be rendered: ${describeThrown(error)}]`;
  }
  return result.success ? text : boundText(text, MAX_FAILURE_TEXT_LENGTH);
}

/**
 * The model's text for a successful `ToolResult` whose value the session
 * copied (`recorded` holds the copy) when that value is a flat record: a plain
 * object of strings, booleans and finite numbers, not a Proxy. The copy was
 * read from the value's own data properties, so rendering either one runs no
 * code (no getter, `toJSON` or `render`) and gives the same JSON, which `dump`
 * would not change; the copy's is made without `dump`'s intermediate object,
 * as most tools' results are such records. `undefined` for anything else.
 */
function flatRecordText(result: ToolResult, recorded: ToolResult): string | undefined {
  const copy = recorded.value;
  if (copy === result.value || typeof copy !== 'object' || copy === null) return undefined;
  if (!result.success || result.excludeValueFromContext || result.constructor !== ToolResult) {
    return undefined;
  }
  // A Proxy's `get` trap may answer otherwise than the descriptors the copy was read from.
  if (types.isProxy(result.value)) return undefined;
  const proto = Object.getPrototypeOf(copy) as object | null;
  if (proto !== Object.prototype && proto !== null) return undefined;
  // A `toJSON` some code added to Object.prototype would change what JSON.stringify writes.
  if ((copy as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const record = copy as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item !== 'number' || !Number.isFinite(item)) return undefined;
  }
  return `${result.message}\n\n${JSON.stringify(record)}`;
}
