import type { Clock } from '../core/clock.js';
import { describeThrown } from '../core/errors/describe-thrown.js';
import type { CallFrame } from '../session/call-frame.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { ToolResult } from '../tools/tool-result.js';
import { retryDelay, type ToolAttempt, type ToolRetry } from '../tools/tool-retry.js';
import type { CallSnapshot } from './call-ending.js';
import { restoreSnapshot } from './opened-call.js';
import { InterruptedCall, runHandler } from './run-handler.js';
import type { LazySignal } from './scope/followed-signal.js';

/** What one call's attempts run with. @internal */
export interface AttemptsInit {
  readonly tool: ToolDefinition;
  readonly params: unknown;
  readonly context: ToolContext;
  readonly signal: LazySignal;
  readonly frame: CallFrame;
  readonly snapshot: CallSnapshot | undefined;
  readonly clock: Clock;
  /** Filled with each attempt as it ends. */
  readonly attempts: ToolAttempt[];
}

/**
 * Runs the handler once, or, for a tool with `retry`, again after each thrown
 * error its `transient` accepts, up to `retry.attempts`, waiting the backoff
 * between attempts and rolling the call's state back before each new one.
 * An interruption (the signal aborted) is never retried. @internal
 */
export function runAttempts(init: AttemptsInit): ToolResult | Promise<ToolResult> {
  const { tool, params, context, signal, frame } = init;
  const retry = tool.retry;
  if (retry === undefined) return runHandler(tool, params, context, signal, frame);
  return retried(init, retry);
}

async function retried(init: AttemptsInit, retry: ToolRetry): Promise<ToolResult> {
  const { tool, params, context, signal, frame, clock, attempts } = init;
  for (let attempt = 1; ; attempt += 1) {
    const started = clock.now();
    try {
      const result = await runHandler(tool, params, context, signal, frame);
      attempts.push({ attempt, ended: 'returned', durationMs: since(clock, started), delayMs: 0 });
      return result;
    } catch (error) {
      const last =
        attempt >= retry.attempts ||
        error instanceof InterruptedCall ||
        signal.aborted ||
        !isTransient(retry, error);
      const delayMs = last ? 0 : retryDelay(retry, attempt);
      attempts.push({
        attempt,
        ended: 'threw',
        error: describeThrown(error),
        durationMs: since(clock, started),
        delayMs,
      });
      if (last) throw error;
      // Each attempt starts from the state the call found.
      restoreSnapshot(init.snapshot);
      await pause(delayMs, signal, clock);
    }
  }
}

function since(clock: Clock, started: number): number {
  return Math.max(0, clock.now() - started);
}

/** What the application's `transient` says; a predicate that throws says no. */
function isTransient(retry: ToolRetry, error: unknown): boolean {
  try {
    return retry.transient(error);
  } catch {
    return false;
  }
}

/** Waits `delayMs` on `clock`, or rejects with {@link InterruptedCall} when `signal` aborts first. */
function pause(delayMs: number, cancellation: LazySignal, clock: Clock): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (cancellation.aborted) {
      reject(new InterruptedCall());
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(new InterruptedCall());
    };
    const signal = cancellation.listenable;
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
