import { CallFrame, currentCallFrame, runInCallFrame } from '../session/call-frame.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';

/** The handler was still running when the evaluation's signal aborted. @internal */
export class InterruptedCall extends Error {}

/**
 * Runs the handler as the code of `frame`'s call, giving up (with
 * {@link InterruptedCall}) when `signal` aborts first. A returned value that is
 * not a `ToolResult` with a string message is a handler bug, thrown as a
 * `TypeError` naming the fix. @internal
 */
export async function runHandler(
  tool: ToolDefinition,
  params: unknown,
  context: ToolContext,
  signal: AbortSignal,
  frame: CallFrame,
): Promise<ToolResult> {
  const handler = tool.handler as NonNullable<ToolDefinition['handler']>;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<typeof interrupted>((resolve) => {
    onAbort = () => {
      resolve(interrupted);
    };
    if (signal.aborted) resolve(interrupted);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([
      runInCallFrame(frame, () => Promise.resolve().then(() => handler(params, context))),
      aborted,
    ]);
    if (outcome === interrupted) throw new InterruptedCall();
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
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** A frame for one call of `tool`, nested in the current one; `lockedSession` when it holds that session's lock. @internal */
export function newCallFrame(
  tool: ToolDefinition,
  callId: string,
  lockedSession: object | undefined,
): CallFrame {
  return new CallFrame(tool.name, callId, lockedSession, currentCallFrame());
}

const interrupted = Symbol('interrupted');

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
