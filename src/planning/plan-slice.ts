import { ConfigurationError, type Session, type SliceAccessor } from '../index.js';
import { Plan } from './plan.js';

const wired = new WeakSet<Session>();

/**
 * The session's `Plan` slice, with the `Plan` reducers installed on first use
 * (the planning tools call it, so applications need not install anything).
 */
export function planSlice(session: Session): SliceAccessor<Plan> {
  if (!wired.has(session)) {
    try {
      session.install(Plan, { initial: () => new Plan() });
    } catch (error) {
      // install() refuses a second install, its only possible failure here: the application
      // installed Plan itself, or this session is a clone of one that had it installed.
      if (!ConfigurationError.is(error)) throw error;
    }
    wired.add(session);
  }
  return session.slice(Plan);
}
