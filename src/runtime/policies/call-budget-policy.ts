import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeValue } from '../../core/describe-value.js';
import type { Session } from '../../session/session.js';
import { PolicyDecision } from '../../tools/policy-decision.js';
import { TOOL_NAME_PATTERN } from '../../tools/tool-name.js';
import type { PolicyCall, ToolPolicy } from '../../tools/tool-policy.js';
import { ToolInvoked } from '../events/tool-invoked.js';

/** Options of a {@link CallBudgetPolicy}: at least one of them. */
export interface CallBudgetPolicyOptions {
  /** The most calls of each listed tool one evaluation may make, e.g. `{ search: 5 }`. */
  readonly perTool?: Readonly<Record<string, number>> | undefined;
  /** The most tool calls one evaluation may make, all tools together. */
  readonly total?: number | undefined;
}

/** Calls this evaluation made so far. */
interface Counts {
  total: number;
  tool: number;
}

const SUBJECT = 'CallBudgetPolicy';
const EXAMPLE = 'new CallBudgetPolicy({ perTool: { search: 5 }, total: 20 })';

/**
 * Limits how many tool calls one evaluation makes: per tool (`perTool`), in
 * all (`total`), or both. It counts the calls recorded in the evaluation's
 * `ToolInvoked` log (successes, failures, interrupted calls and calls the
 * provider ran itself; denied calls do not count, and a resumed evaluation
 * goes on counting where it paused)
 * plus the calls it already let through that are still running (read-only
 * calls of one turn run together). At a limit, the call is denied with the
 * limit and the count, and the model is told to answer with what it has.
 *
 * @example
 * new Prompt({ ns: 'research', key: 'answer', sections, policies: [
 *   new CallBudgetPolicy({ perTool: { search: 5 }, total: 20 }),
 * ] });
 */
export class CallBudgetPolicy implements ToolPolicy {
  /** Names the policy in denials. */
  readonly name = 'call_budget';
  readonly #perTool: ReadonlyMap<string, number>;
  readonly #total: number | undefined;
  /** Calls allowed but not recorded yet, by session, evaluation id and call id (the tool's name). */
  readonly #running = new WeakMap<Session, Map<string, Map<string, string>>>();

  /** @throws ConfigurationError when a limit is not a positive integer, or no limit is given. */
  constructor(options: CallBudgetPolicyOptions) {
    const checked = checkOptions(options);
    this.#perTool = checked.perTool;
    this.#total = checked.total;
    Object.freeze(this);
  }

  /** Denies the call once the evaluation reached the tool's limit or the total. */
  check(call: PolicyCall): PolicyDecision {
    const tool = call.tool.name;
    const toolLimit = this.#perTool.get(tool);
    if (toolLimit === undefined && this.#total === undefined) return PolicyDecision.allow();
    const { context } = call;
    const running = this.#running.get(context.session)?.get(context.evaluationId);
    running?.delete(context.callId);
    const counts = countCalls(context.session, context.evaluationId, tool, running);
    if (running?.size === 0) this.#running.get(context.session)?.delete(context.evaluationId);
    if (toolLimit !== undefined && counts.tool >= toolLimit) {
      return PolicyDecision.deny(
        `'${tool}' was already called ${times(counts.tool)} in this evaluation; its limit is ${calls(toolLimit)}.`,
        `Answer with what you have so far, without calling '${tool}' again.`,
      );
    }
    if (this.#total !== undefined && counts.total >= this.#total) {
      return PolicyDecision.deny(
        `${calls(counts.total, 'tool')} ${counts.total === 1 ? 'was' : 'were'} already made in this evaluation; the limit is ${calls(this.#total, 'tool')}.`,
        'Answer with what you have so far, without calling more tools.',
      );
    }
    // A probed call does not run now; it is checked (and counted) again when it does.
    if (!call.probing) this.#admit(context.session, context.evaluationId, context.callId, tool);
    return PolicyDecision.allow();
  }

  /** Notes a call let through, counted until its `ToolInvoked` is recorded. */
  #admit(session: Session, evaluationId: string, callId: string, tool: string): void {
    let evaluations = this.#running.get(session);
    if (evaluations === undefined) {
      evaluations = new Map();
      this.#running.set(session, evaluations);
    }
    let running = evaluations.get(evaluationId);
    if (running === undefined) {
      running = new Map();
      evaluations.set(evaluationId, running);
    }
    running.set(callId, tool);
  }
}

/**
 * Counts the evaluation's recorded calls that were not denied, and of them
 * those of `tool`, plus the `running` ones; forgets running calls once they
 * are recorded.
 */
function countCalls(
  session: Session,
  evaluationId: string,
  tool: string,
  running: Map<string, string> | undefined,
): Counts {
  const counts: Counts = { total: 0, tool: 0 };
  for (const event of session.view.slice(ToolInvoked)) {
    if (event.evaluationId !== evaluationId) continue;
    if (event.callId !== undefined) running?.delete(event.callId);
    if (event.outcome === 'denied') continue;
    counts.total += 1;
    if (event.name === tool) counts.tool += 1;
  }
  for (const name of running?.values() ?? []) {
    counts.total += 1;
    if (name === tool) counts.tool += 1;
  }
  return counts;
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

/** `1 call`, `5 calls`, `5 tool calls`. */
function calls(count: number, kind?: string): string {
  return `${count} ${kind === undefined ? '' : `${kind} `}${count === 1 ? 'call' : 'calls'}`;
}

function checkOptions(options: unknown): {
  perTool: ReadonlyMap<string, number>;
  total: number | undefined;
} {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigurationError({
      subject: `${SUBJECT} options`,
      problem: `expected an object with perTool and/or total, got ${describeValue(options)}.`,
      fix: `Pass the limits, e.g. ${EXAMPLE}.`,
    });
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (key !== 'perTool' && key !== 'total') {
      throw new ConfigurationError({
        subject: `${SUBJECT} options`,
        problem: `unknown option '${key}'.`,
        fix: `Pass perTool, total or both, e.g. ${EXAMPLE}.`,
      });
    }
  }
  const perTool = checkPerTool(given['perTool']);
  const total = given['total'] === undefined ? undefined : checkLimit(given['total'], 'total');
  if (perTool.size === 0 && total === undefined) {
    throw new ConfigurationError({
      subject: `${SUBJECT} options`,
      problem: 'no limit is given, so the policy would allow every call.',
      fix: `Give perTool (with at least one tool), total, or both, e.g. ${EXAMPLE}.`,
    });
  }
  return { perTool, total };
}

function checkPerTool(perTool: unknown): ReadonlyMap<string, number> {
  const limits = new Map<string, number>();
  if (perTool === undefined) return limits;
  if (typeof perTool !== 'object' || perTool === null || Array.isArray(perTool)) {
    throw new ConfigurationError({
      subject: `${SUBJECT}.perTool`,
      problem: `must be an object of tool names and limits, got ${describeValue(perTool)}.`,
      fix: `Map each tool to the most calls of it one evaluation may make, e.g. ${EXAMPLE}.`,
    });
  }
  for (const [tool, limit] of Object.entries(perTool)) {
    if (!TOOL_NAME_PATTERN.test(tool)) {
      throw new ConfigurationError({
        subject: `${SUBJECT}.perTool`,
        problem: `the key '${tool.slice(0, 80)}' is not a tool name.`,
        fix: `Use tool names as the model sees them (matching ${TOOL_NAME_PATTERN.source}), e.g. { search: 5 }.`,
      });
    }
    limits.set(tool, checkLimit(limit, `perTool.${tool}`));
  }
  return limits;
}

function checkLimit(limit: unknown, field: string): number {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ConfigurationError({
      subject: `${SUBJECT}.${field}`,
      problem: `must be a positive integer, got ${typeof limit === 'number' ? String(limit) : describeValue(limit)}.`,
      fix: `Give the most calls allowed in one evaluation as a whole number of at least 1, e.g. ${EXAMPLE}; to forbid a tool, leave it out of the prompt.`,
    });
  }
  return limit;
}
