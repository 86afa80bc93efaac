import type { Clock } from '../../core/clock.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import { PromptEvaluationError } from '../../core/errors/prompt-evaluation-error.js';
import type { ProviderTurn } from '../conversation.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import type { ProviderRequest } from '../provider-request.js';
import type { ProviderStreamPart } from '../provider-stream-part.js';
import {
  CircuitBreaker,
  type CircuitBreakerOptions,
  checkCircuitBreakerOptions,
} from './circuit-breaker.js';
import { CompositeAdapter, type Member, type MemberAdapter } from './composite-adapter.js';
import type { FallbackEvent } from './fallback-event.js';
import {
  PROVIDER_FAILURE_KINDS,
  type ProviderFailureKind,
  providerFailureKind,
} from './provider-failure-kind.js';
import { requestFor, servedTurn } from './served-items.js';

/** Decides whether a member's failure moves the request to the next member. */
export type FallbackPredicate = (error: unknown, kind: ProviderFailureKind | undefined) => boolean;

/** Options of a {@link FallbackAdapter}. */
export interface FallbackAdapterOptions {
  /**
   * The adapter's `name` in events and saved approval states. Default
   * `fallback`. A paused evaluation resumes only on an adapter of the same name.
   */
  readonly name?: string;
  /**
   * The failures that move a request to the next member: a list of
   * {@link ProviderFailureKind}s (default: all of them: rate limit, overload,
   * timeout, 5xx, no connection), or a function of the error and its kind.
   * Any other failure is thrown at once, as the member threw it.
   */
  readonly fallbackOn?: readonly ProviderFailureKind[] | FallbackPredicate;
  /**
   * Each member's circuit: after `failureThreshold` failures in a row it is
   * skipped for `coolDownMs`, then probed by one request. Default
   * `{ failureThreshold: 3, coolDownMs: 30_000 }`; `false` never skips a member.
   */
  readonly circuitBreaker?: CircuitBreakerOptions | false;
  /** The clock circuits run on. Default: each request's clock (the runtime's). */
  readonly clock?: Clock;
  /** Reports fallbacks, circuit changes and dropped provider items (see {@link FallbackEvent}). Must not throw. */
  readonly onEvent?: (event: FallbackEvent) => void;
}

const subject = 'FallbackAdapter';

/**
 * An adapter over an ordered list of adapters: each request goes to the first
 * member whose circuit admits it; when that member fails in a way another
 * provider may not (rate limit, overload, timeout, 5xx, no connection; see
 * `fallbackOn`), the request goes to the next one. A streamed turn moves on
 * only while nothing of it has reached the caller: once a part was yielded, a
 * failure is thrown as it is, never answered again by another provider.
 *
 * A member that keeps failing is skipped for a cooling period, then probed
 * (see `circuitBreaker`). The conversation carries across members: each
 * member's adapter translates the neutral conversation, and provider items
 * (reasoning, thinking signatures, provider-executed tool items) go back only
 * to the member that produced them; another member gets the turn as its text
 * and calls, and an `items-dropped` event says what was left out. Each turn
 * names the provider and model that served it (`ProviderTurn.provider`,
 * `model`). Capabilities are those every member can honour (see
 * {@link CompositeAdapter}).
 *
 * Each member still retries on its own first (its `retry` options): give the
 * first members `retry: { maxRetries: 0 }` to move on at the first failure.
 *
 * @example
 * const adapter = new FallbackAdapter([openai, anthropic], { circuitBreaker: { coolDownMs: 60_000 } });
 */
export class FallbackAdapter extends CompositeAdapter {
  override readonly name: string;
  /** Undefined: the model depends on the member that serves; each turn names it. */
  declare readonly model?: string | undefined;
  readonly #breakers: readonly CircuitBreaker[];
  readonly #fallsBackOn: FallbackPredicate;
  readonly #clock: Clock | undefined;
  readonly #onEvent: ((event: FallbackEvent) => void) | undefined;

  /**
   * @param adapters the members, in the order they are tried.
   */
  constructor(
    adapters: readonly (ProviderAdapter | MemberAdapter)[],
    options: FallbackAdapterOptions = {},
  ) {
    super(adapters, subject);
    checkCircuitBreakerOptions(options.circuitBreaker, subject);
    this.name = checkName(options.name);
    this.#fallsBackOn = predicateOf(options.fallbackOn);
    this.#clock = options.clock;
    const onEvent = options.onEvent;
    this.#onEvent = onEvent;
    this.#breakers = this.members.map(
      (member) =>
        new CircuitBreaker(options.circuitBreaker, (state, at) => {
          onEvent?.({
            type: 'circuit',
            member: member.id,
            state,
            at,
            openUntil: state === 'open' ? this.#breakers[member.index]?.openUntil : undefined,
          });
        }),
    );
  }

  /** The state of each member's circuit, by member id (the last member of an id wins). */
  circuits(): ReadonlyMap<string, 'closed' | 'open' | 'half-open'> {
    return new Map(this.members.map((member) => [member.id, this.#breakerOf(member).state]));
  }

  /** Sends `request` to the first member that admits it, moving on as the class comment says. */
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const clock = this.#clock ?? request.clock;
    let failures: Failure[] | undefined;
    for (const member of this.members) {
      const breaker = this.#breakerOf(member);
      if (!breaker.admit(clock)) continue;
      let turn: ProviderTurn;
      try {
        turn = await member.adapter.request(requestFor(request, member.id, this.#onEvent));
      } catch (error) {
        (failures ??= []).push(this.#failed(error, member, request, clock, false));
        continue;
      }
      breaker.succeeded(clock);
      return servedTurn(turn, member.id, member.adapter.name, member.adapter.model);
    }
    throw this.#exhausted(request, failures, clock);
  }

  /**
   * Streams from the first member that admits the request; moves on after a
   * failure only while no part was yielded (see the class comment).
   */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const clock = this.#clock ?? request.clock;
    let failures: Failure[] | undefined;
    for (const member of this.members) {
      const breaker = this.#breakerOf(member);
      if (!breaker.admit(clock)) continue;
      let delivered = false;
      let settled = false;
      try {
        for await (const part of member.adapter.stream(
          requestFor(request, member.id, this.#onEvent),
        )) {
          delivered = true;
          if (part.type !== 'turn') {
            yield part;
            continue;
          }
          settled = true;
          breaker.succeeded(clock);
          const { adapter } = member;
          yield {
            type: 'turn',
            turn: servedTurn(part.turn, member.id, adapter.name, adapter.model),
          };
        }
        return;
      } catch (error) {
        settled = true;
        (failures ??= []).push(this.#failed(error, member, request, clock, delivered));
      } finally {
        // The caller stopped reading, or the stream ended without its turn: nothing learned.
        if (!settled) breaker.released();
      }
    }
    throw this.#exhausted(request, failures, clock);
  }

  #breakerOf(member: Member): CircuitBreaker {
    return this.#breakers[member.index] as CircuitBreaker;
  }

  /**
   * Reads a member's failure: returns it when the request moves on; throws
   * it when it must not (a cancellation or the deadline, a failure not in
   * `fallbackOn`, or parts already `delivered`).
   */
  #failed(
    error: unknown,
    member: Member,
    request: ProviderRequest,
    clock: Clock,
    delivered: boolean,
  ): Failure {
    const breaker = this.#breakerOf(member);
    if (request.signal.aborted) {
      breaker.released();
      throw error;
    }
    const kind = providerFailureKind(error);
    if (!this.#fallsBackOn(error, kind)) {
      breaker.released();
      throw error;
    }
    breaker.failed(clock);
    if (delivered) throw error;
    this.#onEvent?.({ type: 'fallback', turn: request.turn, member: member.id, kind, error });
    return { member, kind, error };
  }

  /** The error when no member answered: the lone failure as it was, or one naming every member. */
  #exhausted(
    request: ProviderRequest,
    failures: readonly Failure[] | undefined,
    clock: Clock,
  ): unknown {
    const tried = failures ?? [];
    const skipped = this.members.filter((member) => !tried.some((f) => f.member === member));
    if (tried.length === 1 && skipped.length === 0) return (tried[0] as Failure).error;
    const lines = tried.map(
      (failure) =>
        `${failure.member.id} failed (${failure.kind ?? 'other'}): ${describeThrown(failure.error, 300)}`,
    );
    const now = clock.now();
    for (const member of skipped) {
      const until = this.#breakerOf(member).openUntil;
      lines.push(
        until > 0
          ? `${member.id} was skipped: its circuit is open for ${Math.max(0, until - now)} ms more`
          : `${member.id} was skipped: a probe of it is under way`,
      );
    }
    return new PromptEvaluationError(
      `No provider of the ${this.name} adapter answered turn ${request.turn}: ${lines.join('; ')}. ` +
        'Fix: check the providers named above; add a member, or tune FallbackAdapterOptions.circuitBreaker ' +
        '(failureThreshold, coolDownMs) to skip failing providers for a shorter time.',
      {
        phase: 'request',
        prompt: request.prompt.label,
        cause: tried.at(-1)?.error,
        providerPayload: {
          failures: tried.map((failure) => ({ member: failure.member.id, kind: failure.kind })),
          skipped: skipped.map((member) => member.id),
        },
      },
    );
  }
}

/** A member's failure that moved the request on. */
interface Failure {
  readonly member: Member;
  readonly kind: ProviderFailureKind | undefined;
  readonly error: unknown;
}

function predicateOf(option: FallbackAdapterOptions['fallbackOn']): FallbackPredicate {
  if (typeof option === 'function') return option;
  const kinds = option ?? PROVIDER_FAILURE_KINDS;
  const known: readonly unknown[] = PROVIDER_FAILURE_KINDS;
  if (!Array.isArray(kinds) || kinds.some((kind: unknown) => !known.includes(kind))) {
    throw new ConfigurationError({
      subject,
      problem: `fallbackOn must list failure kinds out of ${PROVIDER_FAILURE_KINDS.join(', ')}, or be a function; got ${String(option)}.`,
      fix: "Pass e.g. fallbackOn: ['rate-limit', 'overloaded'], or fallbackOn: (error, kind) => kind !== undefined.",
    });
  }
  const set = new Set(kinds);
  return (_error, kind) => kind !== undefined && set.has(kind);
}

function checkName(name: unknown): string {
  if (name === undefined) return 'fallback';
  if (typeof name === 'string' && name.trim() !== '') return name;
  throw new ConfigurationError({
    subject,
    problem: `options.name must be a non-empty string, got '${describeThrown(name)}'.`,
    fix: "Pass e.g. name: 'fallback', or leave it out.",
  });
}
