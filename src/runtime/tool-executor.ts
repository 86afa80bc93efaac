import { DeadlineExceededError } from '../errors/deadline-exceeded-error.js';
import { PromptEvaluationError } from '../errors/prompt-evaluation-error.js';
import { ToolValidationError } from '../errors/tool-validation-error.js';
import { ToolInvoked, type ToolOutcome } from '../events/tool-invoked.js';
import type { TokenUsage } from '../events/token-usage.js';
import type { EvaluationScope } from '../container/evaluation-scope.js';
import type { ResourceSnapshot } from '../resources/resource-context.js';
import { parseToolArguments } from '../schema/parse-tool-arguments.js';
import type { SessionSnapshot } from '../session/session-snapshot.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import type { Clock } from './clock.js';
import type { ProviderToolCall } from './conversation.js';
import { decodeNoArguments } from './decode-no-arguments.js';
import { evaluationEventFields, resultForSession } from './event-fields.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** Options of a {@link ToolExecutor}. */
export interface ToolExecutorOptions {
  /** How many calls of read-only tools may run at once within one turn. */
  readonly readOnlyConcurrency: number;
  /** Source of time for durations. */
  readonly clock: Clock;
}

/** Options of one {@link ToolExecutor.execute} call. */
export interface ExecuteOptions {
  /** Usage to attach to the turn's events. */
  readonly usage?: TokenUsage | undefined;
}

interface Invocation {
  readonly call: ProviderToolCall;
  readonly params: unknown;
  readonly result: ToolResult;
  readonly outcome: ToolOutcome;
  readonly snapshot: CallSnapshot | undefined;
  readonly durationMs: number;
  /** Set when the call stops the evaluation; the error is thrown after the event is recorded (if any). */
  readonly stop?: PromptEvaluationError;
  /** Whether the stopped call still gets a `ToolInvoked` (an interrupted call, outcome unknown). */
  readonly recordStop?: boolean;
}

interface CallSnapshot {
  readonly session: SessionSnapshot;
  readonly resources: ResourceSnapshot;
  readonly scope: EvaluationScope;
}

/**
 * Runs the tool calls of one model turn: lookup, argument parsing and
 * validation, deadline check, snapshot, the handler in its own call scope,
 * restore on failure, one `ToolInvoked` event and one tool message per call.
 * Tool problems come back to the model as failed results; only an expired
 * deadline, a cancellation or a `PromptEvaluationError` from a handler stop the
 * evaluation. Calls run in order; consecutive calls of `readOnly` tools run
 * concurrently (up to `readOnlyConcurrency`), their results still in call order.
 */
export class ToolExecutor {
  readonly #options: ToolExecutorOptions;

  constructor(options: ToolExecutorOptions) {
    this.#options = options;
  }

  /** Runs `calls` and returns one outcome per call, in call order. */
  async execute(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    options: ExecuteOptions = {},
  ): Promise<ToolCallOutcome[]> {
    const outcomes: ToolCallOutcome[] = [];
    let index = 0;
    while (index < calls.length) {
      const batch = this.#nextBatch(scope, calls, index);
      index += batch.length;
      const invocations = await this.#invokeAll(scope, batch);
      for (const invocation of invocations) {
        if (invocation.stop !== undefined && invocation.recordStop !== true) throw invocation.stop;
        outcomes.push(this.#record(scope, invocation, options.usage));
        if (invocation.stop !== undefined) throw invocation.stop;
      }
    }
    return outcomes;
  }

  /** The next call alone, or the run of consecutive read-only calls starting at `start`. */
  #nextBatch(
    scope: EvaluationScope,
    calls: readonly ProviderToolCall[],
    start: number,
  ): ProviderToolCall[] {
    const isReadOnly = (call: ProviderToolCall | undefined): boolean =>
      call !== undefined && scope.rendered.tool(call.name)?.readOnly === true;
    const first = calls[start];
    if (first === undefined) return [];
    if (!isReadOnly(first)) return [first];
    let end = start + 1;
    while (end < calls.length && isReadOnly(calls[end])) end += 1;
    return calls.slice(start, end);
  }

  async #invokeAll(
    scope: EvaluationScope,
    batch: readonly ProviderToolCall[],
  ): Promise<Invocation[]> {
    if (batch.length === 1) return [await this.#invoke(scope, batch[0] as ProviderToolCall)];
    const results = new Array<Invocation>(batch.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length) {
        const position = next;
        next += 1;
        results[position] = await this.#invoke(scope, batch[position] as ProviderToolCall);
      }
    };
    const workers = Math.max(1, Math.min(this.#options.readOnlyConcurrency, batch.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return results;
  }

  async #invoke(scope: EvaluationScope, call: ProviderToolCall): Promise<Invocation> {
    const started = this.#options.clock.now();
    const done = (
      result: ToolResult,
      extra: Partial<
        Pick<Invocation, 'params' | 'snapshot' | 'outcome' | 'stop' | 'recordStop'>
      > = {},
    ): Invocation => ({
      call,
      params: extra.params,
      result,
      outcome: extra.outcome ?? (result.success ? 'success' : 'failure'),
      snapshot: extra.snapshot,
      durationMs: Math.max(0, this.#options.clock.now() - started),
      ...(extra.stop === undefined
        ? {}
        : { stop: extra.stop, recordStop: extra.recordStop ?? false }),
    });

    const tool = scope.rendered.tool(call.name);
    if (tool?.handler === undefined)
      return done(ToolResult.error(unknownToolMessage(scope, call, tool)));

    // A call made after the deadline stops the evaluation whatever its arguments (DESIGN §4 order);
    // the check is repeated after parsing, which may await async validators.
    const expired = stopIfOver(scope, `before executing tool '${call.name}'`);
    if (expired !== undefined) return done(ToolResult.error(expired.message), { stop: expired });

    let params: unknown;
    try {
      if (tool.paramsType === undefined) decodeNoArguments(call.arguments);
      else {
        params = await parseToolArguments(tool.paramsType, call.arguments, {
          profile: scope.adapter.argumentsProfile(tool),
        });
      }
    } catch (error) {
      const message = ToolValidationError.is(error) ? error.message : describeError(error);
      return done(ToolResult.error(`Tool validation failed: ${message}`));
    }

    const stopBefore = stopIfOver(scope, `before executing tool '${call.name}'`);
    if (stopBefore !== undefined)
      return done(ToolResult.error(stopBefore.message), { stop: stopBefore });

    const callScope = scope.openCall(call.callId, scope.signal);
    try {
      const snapshot = tool.readOnly ? undefined : takeSnapshot(scope, callScope.resources);
      try {
        const result = await runHandler(tool, params, callScope.context, scope.signal);
        if (!result.success) restoreSnapshot(snapshot);
        return done(result, { params, snapshot });
      } catch (error) {
        restoreSnapshot(snapshot);
        const [result, extra] = failureFor(scope, tool, error);
        return done(result, { ...extra, params });
      }
    } finally {
      await callScope.dispose();
    }
  }

  #record(
    scope: EvaluationScope,
    invocation: Invocation,
    usage: TokenUsage | undefined,
  ): ToolCallOutcome {
    const { call } = invocation;
    let result = resultForSession(invocation.result);
    let message = result.toModelText();
    const event = new ToolInvoked({
      ...evaluationEventFields(scope),
      name: call.name,
      callId: call.callId,
      params: invocation.params,
      rawArguments: call.arguments,
      result,
      renderedMessage: message,
      native: false,
      outcome: invocation.outcome,
      durationMs: invocation.durationMs,
      usage,
    });
    const dispatched = scope.session.dispatch(event);
    if (!dispatched.ok) {
      if (result.success) restoreSnapshot(invocation.snapshot);
      const reasons = dispatched.errors.map((failure) => describeError(failure.error)).join('; ');
      result = new ToolResult({
        message: `Reducer errors prevented applying tool result: ${reasons}`,
        value: result.value,
        success: result.success,
        excludeValueFromContext: result.excludeValueFromContext,
      });
      message = result.toModelText();
    }
    return { call, result, message, event };
  }
}

function unknownToolMessage(
  scope: EvaluationScope,
  call: ProviderToolCall,
  tool: ToolDefinition | undefined,
): string {
  if (tool !== undefined) {
    return `Tool '${call.name}' is executed by the provider and cannot be called as a function.`;
  }
  const available = scope.rendered.tools.filter((t) => t.handler !== undefined).map((t) => t.name);
  return `Unknown tool '${call.name}'. Available tools: ${available.length === 0 ? 'none' : available.join(', ')}.`;
}

function stopIfOver(scope: EvaluationScope, activity: string): PromptEvaluationError | undefined {
  if (scope.deadline?.expired === true) {
    return new PromptEvaluationError(`Deadline expired ${activity}.`, {
      phase: 'tool',
      prompt: `${scope.prompt.ns}/${scope.prompt.key}`,
      providerPayload: { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
    });
  }
  if (scope.signal.aborted) {
    return new PromptEvaluationError(`Evaluation was cancelled ${activity}.`, {
      phase: 'tool',
      prompt: `${scope.prompt.ns}/${scope.prompt.key}`,
      cause: scope.signal.reason,
    });
  }
  return undefined;
}

function takeSnapshot(
  scope: EvaluationScope,
  resources: EvaluationScope['resources'],
): CallSnapshot {
  return { session: scope.session.snapshot(), resources: resources.snapshot(), scope };
}

function restoreSnapshot(snapshot: CallSnapshot | undefined): void {
  if (snapshot === undefined) return;
  snapshot.scope.session.restore(snapshot.session);
  snapshot.scope.resources.restore(snapshot.resources);
}

const interrupted = Symbol('interrupted');

/** Runs the handler, giving up (as "interrupted") when `signal` aborts first. */
async function runHandler(
  tool: ToolDefinition,
  params: unknown,
  context: Parameters<NonNullable<ToolDefinition['handler']>>[1],
  signal: AbortSignal,
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
      Promise.resolve().then(() => handler(params, context)),
      aborted,
    ]);
    if (outcome === interrupted) throw new InterruptedCall();
    if (!(outcome instanceof ToolResult)) {
      throw new TypeError(
        `the handler returned ${describeValue(outcome)} instead of a ToolResult; return ToolResult.ok(value) or ToolResult.error(message)`,
      );
    }
    return outcome;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

class InterruptedCall extends Error {}

function failureFor(
  scope: EvaluationScope,
  tool: ToolDefinition,
  error: unknown,
): [ToolResult, Partial<Pick<Invocation, 'outcome' | 'stop' | 'recordStop'>>] {
  const prompt = `${scope.prompt.ns}/${scope.prompt.key}`;
  if (error instanceof InterruptedCall || DeadlineExceededError.is(error)) {
    const why =
      scope.deadline?.expired === true || DeadlineExceededError.is(error)
        ? 'the deadline passed'
        : 'the evaluation was cancelled';
    const stop = new PromptEvaluationError(
      `Tool '${tool.name}' was interrupted because ${why}; its outcome is unknown and its state changes were rolled back.`,
      {
        phase: 'tool',
        prompt,
        cause: error instanceof InterruptedCall ? scope.signal.reason : error,
        providerPayload:
          scope.deadline === undefined
            ? undefined
            : { deadlineExpiresAt: scope.deadline.expiresAt.toISOString() },
      },
    );
    return [
      ToolResult.error(`Interrupted: ${why}; outcome unknown.`),
      { outcome: 'unknown', stop, recordStop: true },
    ];
  }
  if (PromptEvaluationError.is(error)) {
    return [ToolResult.error(error.message), { stop: error }];
  }
  if (ToolValidationError.is(error)) {
    return [ToolResult.error(`Tool validation failed: ${error.message}`), {}];
  }
  return [ToolResult.error(`Tool '${tool.name}' execution failed: ${describeError(error)}`), {}];
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an instance of ${value.constructor.name}`;
  return `a ${typeof value}`;
}
