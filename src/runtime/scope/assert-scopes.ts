import type { Container, ServiceIdentifier } from 'inversify';

import {
  ConfigurationError,
  type ConfigurationErrorOptions,
} from '../../core/errors/configuration-error.js';
import {
  checkScopes,
  type CheckScopesOptions,
  inspectScopes,
  type ScopeInspection,
  type ScopedServiceIds,
  type ScopeHop,
  type ScopeLeak,
  type ScopeProblem,
} from './check-scopes.js';
import { bindingExample, describeMissingBinding } from './missing-binding.js';
import { serviceIdName } from './service-id-name.js';

/**
 * Fails when the container is prepared, instead of leaking at run time: throws
 * a {@link ConfigurationError} if a singleton reachable from `roots` depends on
 * an evaluation- or call-scoped value, or if a root is unbound or cannot be
 * planned. Nothing is instantiated. See {@link checkScopes} for what is seen.
 *
 * @example
 * assertScopes(app, [GuidanceSection], { evaluation: [Session, Deadline], call: [ToolContext] });
 */
export function assertScopes(
  container: Container,
  roots: Iterable<ServiceIdentifier>,
  scopes: ScopedServiceIds,
  options: CheckScopesOptions = {},
): void {
  throwIfProblems(checkScopes(container, roots, scopes, options), container, scopes);
}

/**
 * {@link assertScopes}, returning the narrower scopes each root's dependencies
 * reach (see `inspectScopes`), from one plan per root. @internal
 */
export function assertScopesReached(
  container: Container,
  roots: Iterable<ServiceIdentifier>,
  scopes: ScopedServiceIds,
  options: CheckScopesOptions = {},
): ScopeInspection['reached'] {
  const { problems, reached } = inspectScopes(container, roots, scopes, options);
  throwIfProblems(problems, container, scopes);
  return reached;
}

function throwIfProblems(
  problems: readonly ScopeProblem[],
  container: Container,
  scopes: ScopedServiceIds,
): void {
  const [first] = problems;
  if (first === undefined) return;
  const describe = (problem: ScopeProblem): ConfigurationErrorOptions =>
    (problem.kind === 'unplannable-root'
      ? describeMissingBinding(container, problem.root, problem.cause, scopes)
      : undefined) ?? describeProblem(problem);
  if (problems.length === 1) throw new ConfigurationError(describe(first));
  const listed = problems.map((problem, index) => {
    const { subject, problem: what, fix } = describe(problem);
    return `${index + 1}. ${subject}: ${what} Fix: ${fix}`;
  });
  throw new ConfigurationError({
    subject: 'Container',
    problem: `${problems.length} wiring problems were found:\n${listed.join('\n')}\n`,
    fix: 'Apply the fix given with each problem.',
  });
}

function describeProblem(problem: ScopeProblem): ConfigurationErrorOptions {
  switch (problem.kind) {
    case 'scope-leak':
      return describeLeak(problem);
    case 'unbound-root':
      return {
        subject: serviceIdName(problem.root),
        problem: 'is used by a prompt but is not bound in the container.',
        fix: `Bind it in the application container, e.g. ${bindingExample(problem.root)}.`,
      };
    case 'unplannable-root':
      return {
        subject: serviceIdName(problem.root),
        problem: `cannot be resolved: ${messageOf(problem.cause)}`,
        fix: 'Bind every service named above in the application container (or mark optional dependencies with @optional()), and break any circular dependency.',
        cause: problem.cause,
      };
  }
}

function describeLeak(leak: ScopeLeak): ConfigurationErrorOptions {
  const name = serviceIdName(leak.singleton.serviceId);
  const value = leak.path[leak.path.length - 1];
  const valueName = value === undefined ? 'a scoped value' : serviceIdName(value.serviceId);
  const first = leak.scope === 'call' ? 'tool call' : 'evaluation';
  return {
    subject: name,
    problem:
      `is a singleton but depends on ${valueName}, which is bound per ${first}: ` +
      `${leak.path.map(formatHop).join(' → ')}. The singleton would be built during the first ` +
      `${first} and keep that ${first}'s value for every later one.`,
    fix:
      `Bind ${name} in transient or request scope (.inTransientScope() or .inRequestScope()), or keep ` +
      `${valueName} out of its dependencies and pass what it needs from the tool method's context argument. ` +
      `A toFactory binding does not help: inversify caches the factory with the first caller's context.`,
  };
}

function formatHop(hop: ScopeHop): string {
  const notes: string[] = [];
  if (hop.implementation !== undefined) notes.push(hop.implementation);
  if (hop.bindingScope === 'Singleton') notes.push('singleton');
  if (hop.valueScope !== undefined) notes.push(`${hop.valueScope} scope`);
  if (hop.property !== undefined) notes.push(`property ${String(hop.property)}`);
  const index = hop.multiIndex === undefined ? '' : `[${hop.multiIndex}]`;
  const name = `${serviceIdName(hop.serviceId)}${index}`;
  return notes.length === 0 ? name : `${name} (${notes.join(', ')})`;
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
