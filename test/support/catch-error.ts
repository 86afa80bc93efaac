import type {
  AffordanceError,
  AffordanceErrorCode,
} from '../../src/core/errors/affordance-error.js';

type ErrorGuard<E extends AffordanceError> = (abstract new (...args: never[]) => E) & {
  readonly errorCode: AffordanceErrorCode | undefined;
  is(value: unknown): boolean;
};

/**
 * Runs `fn`, expecting it to throw an error recognised by `Kind.is`, and returns
 * that error typed as `E`. Fails the test when nothing or something else is thrown.
 */
export function catchError<E extends AffordanceError>(Kind: ErrorGuard<E>, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    return expectKind(Kind, error);
  }
  throw new Error(`expected ${Kind.name} to be thrown, but nothing was thrown`);
}

/** Like {@link catchError}, for a function whose promise should reject. */
export async function catchRejection<E extends AffordanceError>(
  Kind: ErrorGuard<E>,
  fn: () => Promise<unknown>,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    return expectKind(Kind, error);
  }
  throw new Error(`expected ${Kind.name} to be thrown, but nothing was thrown`);
}

function expectKind<E extends AffordanceError>(Kind: ErrorGuard<E>, caught: unknown): E {
  if (!Kind.is(caught)) {
    const shown =
      caught instanceof Error ? `${caught.name}: ${caught.message}` : JSON.stringify(caught);
    throw new Error(`expected ${Kind.name}, got ${shown}`);
  }
  return caught as E;
}
