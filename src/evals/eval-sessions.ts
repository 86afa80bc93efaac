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

/** One trial's session and how to keep it once scored. @internal */
export interface OpenedTrialSession {
  readonly session: Session;
  keep(): Promise<void>;
}

/** Opens trial sessions as {@link EvalSessionsOption} says. @internal */
export interface EvalSessions {
  open(sessionId: string): Promise<OpenedTrialSession>;
}

/** The {@link EvalSessions} of an option. @internal */
export function evalSessions(option: EvalSessionsOption | undefined): EvalSessions {
  if (option === undefined || option === 'memory') {
    return {
      open: (sessionId) =>
        Promise.resolve({ session: new Session({ sessionId }), keep: () => Promise.resolve() }),
    };
  }
  if (option instanceof Map) {
    return {
      open: (sessionId) => {
        const session = new Session({ sessionId });
        return Promise.resolve({
          session,
          keep: () => {
            option.set(sessionId, session);
            return Promise.resolve();
          },
        });
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
