import { randomBytes } from 'node:crypto';

/**
 * The `stateSecret` that signs the service's paused evaluations (docs/guide/policies-and-approvals.md): `AFFORDANCE_STATE_SECRET` from the environment, as an
 * application configures it, the same in every process that resumes a state
 * (the queued mode's worker too). When the variable is not set, the demo
 * makes a random one and puts it in its environment, so the processes it
 * starts inherit it; a state then resumes in no later run. Never hard-code a
 * secret in an application.
 */
export function stateSecret(): string {
  const configured = process.env['AFFORDANCE_STATE_SECRET'];
  if (configured !== undefined && configured !== '') return configured;
  const made = randomBytes(32).toString('hex');
  process.env['AFFORDANCE_STATE_SECRET'] = made;
  return made;
}
