import { ConfigurationError, Session } from '../index.js';
import type { SessionPersistence } from '../durable/index.js';

/**
 * Where the sessions of a run's trials are kept: `'memory'` (the default;
 * nothing is kept once the trial is scored), a `Map` that receives each
 * trial's `Session` by its id (the report's `sessionId`), or a
 * `SessionPersistence` (from `affordance/durable`) that commits each trial's
 * session to its store under that id (its codec must know the classes the
 * sessions hold).
 */
export type EvalSessionsOption = 'memory' | Map<string, Session> | SessionPersistence;

/** One trial's session and how to keep it once scored (at once, or by the promise `keep` returns). @internal */
export interface OpenedTrialSession {
  readonly session: Session;
  keep(): Promise<void> | undefined;
}

/**
 * Opens trial sessions as {@link EvalSessionsOption} says: in memory at once,
 * from a store by a promise (a promise per trial costs a short trial
 * measurably, so only the store pays it). @internal
 */
export interface EvalSessions {
  open(sessionId: string): OpenedTrialSession | Promise<OpenedTrialSession>;
}

const KEPT_ALREADY = (): undefined => undefined;

/** The {@link EvalSessions} of an option. @internal */
export function evalSessions(option: EvalSessionsOption | undefined): EvalSessions {
  if (option === undefined || option === 'memory') {
    return { open: (sessionId) => ({ session: new Session({ sessionId }), keep: KEPT_ALREADY }) };
  }
  if (option instanceof Map) {
    return {
      open: (sessionId) => {
        const session = new Session({ sessionId });
        return {
          session,
          keep: () => {
            option.set(sessionId, session);
            return undefined;
          },
        };
      },
    };
  }
  if (typeof option.open !== 'function') {
    throw new ConfigurationError({
      subject: 'runEvalSuite sessions',
      problem: 'is neither "memory", a Map nor a SessionPersistence.',
      fix: "Pass sessions: 'memory', a new Map(), or new SessionPersistence({ store }).",
    });
  }
  return {
    open: async (sessionId) => {
      const durable = await option.open(sessionId);
      return {
        session: durable.session,
        keep: async () => {
          await durable.commit();
        },
      };
    },
  };
}
