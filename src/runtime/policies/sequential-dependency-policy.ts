import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeValue } from '../../core/describe-value.js';
import { PolicyDecision } from '../../tools/policy-decision.js';
import { TOOL_NAME_PATTERN } from '../../tools/tool-name.js';
import type { PolicyCall, ToolPolicy } from '../../tools/tool-policy.js';
import { ToolInvoked } from '../events/tool-invoked.js';

/** Options of a {@link SequentialDependencyPolicy}. */
export interface SequentialDependencyPolicyOptions {
  /**
   * For each tool, the tools that must each have succeeded earlier in the
   * session before it may run, e.g. `{ deploy: ['build', 'test'] }`.
   */
  readonly requires: Readonly<Record<string, readonly string[]>>;
}

const SUBJECT = 'SequentialDependencyPolicy';

/**
 * Lets a tool run only after the tools it depends on have succeeded: a call of
 * a tool listed in `requires` is denied unless every tool listed for it has a
 * call with outcome `success` recorded earlier in the same session (its
 * `ToolInvoked` log, whichever evaluation made the call). The model reads which
 * tools are missing and is told to call them first. Tools not listed are
 * always allowed.
 *
 * A dependency is looked up when the call is checked: calls of read-only tools
 * that the model makes in the same turn run together and are recorded after
 * the turn's batch, so make a dependency state-changing, or expect its
 * dependants in a later turn.
 *
 * @example
 * new Prompt({ ns: 'ops', key: 'release', sections, policies: [
 *   new SequentialDependencyPolicy({ requires: { deploy: ['build', 'test'] } }),
 * ] });
 */
export class SequentialDependencyPolicy implements ToolPolicy {
  /** Names the policy in denials. */
  readonly name = 'sequential_dependency';
  readonly #requires: ReadonlyMap<string, readonly string[]>;

  /** @throws ConfigurationError when `requires` is not a map of tool names to non-empty lists of tool names, or has a cycle. */
  constructor(options: SequentialDependencyPolicyOptions) {
    this.#requires = checkRequires(options);
    Object.freeze(this);
  }

  /** Denies a listed tool until each tool it requires has a successful call in the session. */
  check(call: PolicyCall): PolicyDecision {
    const required = this.#requires.get(call.tool.name);
    if (required === undefined) return PolicyDecision.allow();
    const missing = new Set(required);
    for (const event of call.context.session.view.slice(ToolInvoked)) {
      if (event.outcome === 'success' && missing.delete(event.name) && missing.size === 0) {
        return PolicyDecision.allow();
      }
    }
    const tool = call.tool.name;
    const names = required.filter((name) => missing.has(name));
    return PolicyDecision.deny(
      `'${tool}' may run only after ${listOf(required)} ${required.length === 1 ? 'has' : 'have each'} succeeded in this session, and no successful call of ${listOf(names, 'or')} is recorded.`,
      `Call ${listOf(names)} first, then call '${tool}' again once ${names.length === 1 ? 'it succeeds' : 'they succeed'}.`,
    );
  }
}

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`. */
function listOf(names: readonly string[], last = 'and'): string {
  const quoted = names.map((name) => `'${name}'`);
  return quoted.length <= 1
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} ${last} ${quoted.at(-1) ?? ''}`;
}

function checkRequires(options: unknown): ReadonlyMap<string, readonly string[]> {
  const example = "new SequentialDependencyPolicy({ requires: { deploy: ['build', 'test'] } })";
  if (!isRecord(options) || !isRecord(options['requires'])) {
    throw new ConfigurationError({
      subject: `${SUBJECT} options`,
      problem: isRecord(options)
        ? `requires must be an object of tool names, got ${describeValue(options['requires'])}.`
        : `expected an object with requires, got ${describeValue(options)}.`,
      fix: `Map each tool to the tools that must succeed before it, e.g. ${example}.`,
    });
  }
  for (const key of Object.keys(options)) {
    if (key !== 'requires') {
      throw new ConfigurationError({
        subject: `${SUBJECT} options`,
        problem: `unknown option '${key}'.`,
        fix: `Pass only requires, e.g. ${example}.`,
      });
    }
  }
  const requires = new Map<string, readonly string[]>();
  for (const [tool, before] of Object.entries(options['requires'])) {
    checkToolName(tool, `${SUBJECT}.requires`, 'a key');
    requires.set(tool, checkList(tool, before));
  }
  if (requires.size === 0) {
    throw new ConfigurationError({
      subject: `${SUBJECT}.requires`,
      problem: 'lists no tool, so the policy would allow every call.',
      fix: `List at least one tool with what must succeed before it, e.g. ${example}, or leave the policy out.`,
    });
  }
  checkAcyclic(requires);
  return requires;
}

function checkList(tool: string, before: unknown): readonly string[] {
  const subject = `${SUBJECT}.requires.${tool}`;
  if (!Array.isArray(before) || before.length === 0) {
    throw new ConfigurationError({
      subject,
      problem: `must be a non-empty array of tool names, got ${describeValue(before)}.`,
      fix: `List the tools that must succeed before '${tool}', e.g. { ${tool}: ['build'] }; leave '${tool}' out when nothing must.`,
    });
  }
  for (const name of before as unknown[]) checkToolName(name, subject, 'an entry');
  return Object.freeze([...new Set(before as string[])]);
}

function checkToolName(name: unknown, subject: string, what: string): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new ConfigurationError({
      subject,
      problem: `${what} is ${typeof name === 'string' ? `'${name.slice(0, 80)}'` : describeValue(name)}, which is not a tool name.`,
      fix: `Use tool names as the model sees them (matching ${TOOL_NAME_PATTERN.source}), e.g. 'deploy'.`,
    });
  }
}

/** Refuses dependencies that can never be met: a tool waiting, directly or not, for itself. */
function checkAcyclic(requires: ReadonlyMap<string, readonly string[]>): void {
  const done = new Set<string>();
  const visit = (tool: string, path: readonly string[]): void => {
    if (path.includes(tool)) {
      const cycle = [...path.slice(path.indexOf(tool)), tool].map((name) => `'${name}'`);
      throw new ConfigurationError({
        subject: `${SUBJECT}.requires`,
        problem: `${cycle.join(' requires ')}: none of these tools could ever run.`,
        fix: `Remove one of these requirements so that no tool waits, directly or through others, for itself.`,
      });
    }
    if (done.has(tool)) return;
    for (const next of requires.get(tool) ?? []) visit(next, [...path, tool]);
    done.add(tool);
  };
  for (const tool of requires.keys()) visit(tool, []);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
