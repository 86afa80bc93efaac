import { CallFrame, currentCallFrame, runInCallFrame } from '../session/call-frame.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import { isThenable } from '../core/is-thenable.js';

/** The handler was still running when the evaluation's signal aborted. @internal */
export class InterruptedCall extends Error {}

/**
 * Runs the handler as the code of `frame`'s call. A handler that returns at
 * once is done at once (no promise); one that returns a promise is raced
 * against `signal`, giving up (with {@link InterruptedCall}) when it aborts
 * first. A returned value that is not a `ToolResult` with a string message is
 * a handler bug, thrown as a `TypeError` naming the fix. @internal
 */
export function runHandler(
  tool: ToolDefinition,
  params: unknown,
  context: ToolContext,
  signal: AbortSignal,
  frame: CallFrame,
): ToolResult | Promise<ToolResult> {
  const handler = tool.handler as NonNullable<ToolDefinition['handler']>;
  const returned: unknown = runInCallFrame(frame, () => handler(params, context));
  const later = isThenable(returned);
  // A signal that aborted while the handler ran interrupts the call, whatever it returned
  // (a late rejection of what it returned is then nobody's to handle).
  if (signal.aborted) {
    if (later) returned.then(undefined, () => undefined);
    throw new InterruptedCall();
  }
  return later ? settled(returned, signal) : checkedResult(returned);
}

/**
 * What a handler's promise settles to, unless `signal` aborts first. One
 * promise and its callbacks: a call waiting on a slow handler holds little.
 * The first of the three outcomes wins (a thenable may call back at once, or
 * more than once); a `then` that throws rejects with what it threw.
 */
function settled(returned: PromiseLike<unknown>, signal: AbortSignal): Promise<ToolResult> {
  return new Promise<ToolResult>((resolve, reject) => {
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      signal.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = (): void => {
      if (finish()) reject(new InterruptedCall());
    };
    returned.then(
      (outcome) => {
        if (!finish()) return;
        try {
          resolve(checkedResult(outcome));
        } catch (error) {
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a TypeError from checkedResult
          reject(error);
        }
      },
      (error: unknown) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what the handler threw, unchanged
        if (finish()) reject(error);
      },
    );
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a thenable may have called back already
    if (!done) signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `outcome` when it is a `ToolResult` with a text message; otherwise the `TypeError` naming the fix. */
function checkedResult(outcome: unknown): ToolResult {
  if (!(outcome instanceof ToolResult)) {
    throw new TypeError(
      `the handler returned ${describeValue(outcome)} instead of a ToolResult; return ToolResult.ok(value) or ToolResult.error(message)`,
    );
  }
  if (typeof outcome.message !== 'string') {
    throw new TypeError(
      `the handler returned a ToolResult whose message is ${describeValue(outcome.message)}, not a string; pass a text message, e.g. ToolResult.ok(value, 'Done.')`,
    );
  }
  return outcome;
}

/** A frame for one call of `tool`, nested in the current one; `lockedSession` when it holds that session's lock. @internal */
export function newCallFrame(
  tool: ToolDefinition,
  callId: string,
  lockedSession: object | undefined,
): CallFrame {
  return new CallFrame(tool.name, callId, lockedSession, currentCallFrame());
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') {
    try {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'an object';
    } catch {
      return 'an object';
    }
  }
  return `a ${typeof value}`;
}
