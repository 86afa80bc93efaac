import { createHmac, timingSafeEqual } from 'node:crypto';

import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import { canonicalJson, sha256 } from '../../prompt/overrides/prompt-descriptor.js';
import { checkSecret } from '../runtime-checks.js';
import type { RuntimeOptions } from '../runtime-options.js';
import type { EvaluationState } from './evaluation-state.js';

const GIVE_A_SECRET =
  'Give the runtime a secret of at least 16 characters, the same in every process that saves or resumes these states: ' +
  'installAffordance(container, { stateSecret: process.env.AFFORDANCE_STATE_SECRET }) (createTestRuntime sets a test one).';
const OPT_OUT =
  "To use unsigned, forgeable states anyway, pass unsignedStates: 'accept-forgeable'.";

/**
 * How a runtime signs the states it saves (an approval pause, a checkpoint)
 * and checks the ones it resumes, from `RuntimeOptions.stateSecret` and
 * `unsignedStates` (docs/guide/policies-and-approvals.md). Safe by default: states are signed
 * with an HMAC-SHA-256 of the secret, over everything a state holds (its
 * calls, conversation, session id and version), and a runtime without a
 * secret neither saves nor resumes a state. Only `unsignedStates:
 * 'accept-forgeable'` lets a state carry a plain SHA-256 digest, which whoever
 * holds the state can recompute after changing it. @internal
 */
export class StateSigner {
  readonly #secret: string | undefined;
  readonly #acceptUnsigned: boolean;

  /** @throws ConfigurationError when `stateSecret` is short or not a string, or `unsignedStates` is unknown. */
  constructor(options: Pick<RuntimeOptions, 'stateSecret' | 'unsignedStates'>) {
    this.#secret = checkSecret(options.stateSecret);
    const unsigned: unknown = options.unsignedStates;
    if (unsigned !== undefined && unsigned !== 'refuse' && unsigned !== 'accept-forgeable') {
      throw new ConfigurationError({
        subject: 'unsignedStates',
        problem: `must be 'refuse' or 'accept-forgeable', got ${(JSON.stringify(unsigned) as string | undefined) ?? typeof unsigned}.`,
        fix: "Leave it out (states are signed with stateSecret), or pass 'accept-forgeable' to accept states anyone holding them can alter.",
      });
    }
    this.#acceptUnsigned = unsigned === 'accept-forgeable';
  }

  /**
   * The integrity of a state's `body`, saved for `subject` (e.g. `Pausing
   * evaluation … for approval`).
   * @throws ConfigurationError when the runtime has no secret and does not accept unsigned states.
   */
  sign(body: Omit<EvaluationState, 'integrity'>, subject: string): EvaluationState['integrity'] {
    const secret = this.#secret;
    if (secret === undefined && !this.#acceptUnsigned) {
      throw new ConfigurationError({
        subject,
        problem:
          "this runtime has no stateSecret to sign the saved state with; an unsigned state is forgeable: whoever holds it can change what runs when it is resumed (a call's arguments, the session it runs in) and recompute its digest.",
        fix: `${GIVE_A_SECRET} ${OPT_OUT}`,
      });
    }
    return digestOf(canonicalJson(body), secret);
  }

  /**
   * Checks that `state` is one this runtime (or another with the same
   * secret) saved, unchanged.
   * @throws EvaluationStateError (made by `refuse`) naming what does not match.
   */
  check(
    state: EvaluationState,
    refuse: (problem: string, fix: string) => EvaluationStateError,
  ): void {
    const { integrity, ...body } = state;
    const secret = this.#secret;
    const signed = integrity.algorithm === 'hmac-sha256';
    if (signed && secret === undefined) {
      throw refuse(
        'the state is signed, and this runtime has no stateSecret to check the signature.',
        'Give the runtime the same stateSecret as the one that saved it: installAffordance(container, { stateSecret }).',
      );
    }
    if (!signed && !this.#acceptUnsigned) {
      throw refuse(
        secret === undefined
          ? 'this runtime has no stateSecret, so it cannot check that the state is one it saved: an unsigned state is forgeable (whoever holds it can change it and recompute its digest).'
          : 'the state is not signed (its plain SHA-256 digest can be recomputed by whoever holds it), and this runtime resumes only states signed with its stateSecret.',
        `Resume states saved by a runtime with the same stateSecret. ${GIVE_A_SECRET} ${OPT_OUT}`,
      );
    }
    const expected = digestOf(canonicalJson(body), signed ? secret : undefined);
    if (!sameDigest(integrity.digest, expected.digest)) {
      throw refuse(
        'the state was altered after it was saved, or signed with another stateSecret (its integrity digest does not match its content).',
        'Resume the state exactly as the interrupted response returned it, with the stateSecret of the runtime that saved it; to change a call, reject it with a message instead.',
      );
    }
  }
}

function digestOf(text: string, secret: string | undefined): EvaluationState['integrity'] {
  if (secret === undefined) return { algorithm: 'sha256', digest: sha256(text) };
  return {
    algorithm: 'hmac-sha256',
    digest: createHmac('sha256', secret).update(text, 'utf8').digest('hex'),
  };
}

/** Compares digests in constant time (a signature check must not tell how much of a guess was right). */
function sameDigest(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given, 'utf8'), Buffer.from(expected, 'utf8'));
}
