import type { AffordanceError, AffordanceErrorCode } from '../../src/errors/affordance-error.js';

type ErrorGuard<E extends AffordanceError> = (abstract new (...args: never[]) => E) & {
  readonly errorCode: AffordanceErrorCode | undefined;
  is(value: unknown): boolean;
};

/**
 * Awaits `fn`, expecting it to reject with an error recognised by `Kind.is`,
 * and returns that error typed as `E`. Fails the test otherwise.
 */
export async function catchRejection<E extends AffordanceError>(
  Kind: ErrorGuard<E>,
  fn: () => Promise<unknown>,
): Promise<E> {
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  if (caught === undefined)
    throw new Error(`expected ${Kind.name} to be thrown, but nothing was thrown`);
  if (!Kind.is(caught)) {
    throw new Error(
      `expected ${Kind.name}, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : JSON.stringify(caught)}`,
    );
  }
  return caught as E;
}
