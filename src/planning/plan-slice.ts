import type { Session, SliceAccessor } from '../index.js';
import { Plan } from './plan.js';

/**
 * The session's `Plan` slice, with the `Plan` reducers installed on first use
 * (the planning tools call it, so applications need not install anything).
 */
export function planSlice(session: Session): SliceAccessor<Plan> {
  if (!session.isInstalled(Plan)) session.install(Plan, { initial: () => new Plan() });
  return session.slice(Plan);
}
