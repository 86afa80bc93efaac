import type { Clock } from '../../core/clock.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';

/**
 * Where a provider's circuit stands: `closed` (requests go to it), `open`
 * (it failed `failureThreshold` times in a row and is skipped until its
 * cooling period ends), `half-open` (the period ended: the next request
 * probes it, alone; an answer closes the circuit, a failure opens it again).
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** How a {@link FallbackAdapter} stops sending to a failing provider. */
export interface CircuitBreakerOptions {
  /** Failures in a row (of the kinds the adapter falls back on) that open the circuit. Default 3. */
  readonly failureThreshold?: number;
  /** How long an open circuit skips its provider before probing it, in milliseconds. Default 30 000. */
  readonly coolDownMs?: number;
}

/** The defaults of {@link CircuitBreakerOptions}. */
const DEFAULT_THRESHOLD = 3;
const DEFAULT_COOL_DOWN_MS = 30_000;

/**
 * One provider's circuit, kept by a {@link FallbackAdapter}. Times are read
 * from the clock the adapter is given (the request's clock by default), so
 * tests move them with a `ManualClock`. @internal
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #coolDownMs: number;
  readonly #onChange: (state: CircuitState, now: number) => void;
  #state: CircuitState = 'closed';
  #failures = 0;
  #openUntil = 0;
  #probing = false;

  constructor(
    options: CircuitBreakerOptions | false | undefined,
    onChange: (state: CircuitState, now: number) => void,
  ) {
    this.#threshold =
      options === false
        ? Number.POSITIVE_INFINITY
        : (options?.failureThreshold ?? DEFAULT_THRESHOLD);
    this.#coolDownMs = options === false ? 0 : (options?.coolDownMs ?? DEFAULT_COOL_DOWN_MS);
    this.#onChange = onChange;
  }

  /** The circuit's state as last changed (an open circuit past its period turns `half-open` on the next {@link CircuitBreaker.admit}). */
  get state(): CircuitState {
    return this.#state;
  }

  /** When an open circuit may be probed again (epoch milliseconds); 0 when it is not open. */
  get openUntil(): number {
    return this.#state === 'open' ? this.#openUntil : 0;
  }

  /**
   * Whether a request may go to the provider now: always when closed (the
   * clock is not read); once, as the probe, when the cooling period is over;
   * never otherwise (while open, or while a probe is out).
   */
  admit(clock: Clock): boolean {
    if (this.#state === 'closed') return true;
    const now = clock.now();
    if (this.#state === 'open') {
      if (now < this.#openUntil) return false;
      this.#set('half-open', now);
    }
    if (this.#probing) return false;
    this.#probing = true;
    return true;
  }

  /** The provider answered (or refused the request for a reason of its own): the circuit closes. */
  succeeded(clock: Clock): void {
    this.#probing = false;
    this.#failures = 0;
    if (this.#state !== 'closed') this.#set('closed', clock.now());
  }

  /** The provider failed in a way the adapter falls back on. */
  failed(clock: Clock): void {
    const now = clock.now();
    this.#probing = false;
    this.#failures += 1;
    if (this.#state === 'half-open' || this.#failures >= this.#threshold) {
      this.#openUntil = now + this.#coolDownMs;
      this.#failures = 0;
      this.#set('open', now);
    }
  }

  /** The request ended without saying anything of the provider (cancelled): a probe may be sent again. */
  released(): void {
    this.#probing = false;
  }

  #set(state: CircuitState, now: number): void {
    this.#state = state;
    this.#onChange(state, now);
  }
}

/** Checks circuit breaker options when an adapter is built. @internal */
export function checkCircuitBreakerOptions(
  options: CircuitBreakerOptions | false | undefined,
  subject: string,
): void {
  if (options === undefined || options === false) return;
  const { failureThreshold, coolDownMs } = options;
  if (
    failureThreshold !== undefined &&
    (!Number.isSafeInteger(failureThreshold) || failureThreshold < 1)
  ) {
    throw new ConfigurationError({
      subject,
      problem: `circuitBreaker.failureThreshold must be a whole number >= 1, got ${String(failureThreshold)}.`,
      fix: 'Pass e.g. circuitBreaker: { failureThreshold: 3 }, or circuitBreaker: false to never skip a provider.',
    });
  }
  if (coolDownMs !== undefined && (!Number.isFinite(coolDownMs) || coolDownMs < 0)) {
    throw new ConfigurationError({
      subject,
      problem: `circuitBreaker.coolDownMs must be a finite number of milliseconds >= 0, got ${String(coolDownMs)}.`,
      fix: 'Pass e.g. circuitBreaker: { coolDownMs: 30_000 }.',
    });
  }
}
