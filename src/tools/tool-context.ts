import type { ServiceIdentifier } from 'inversify';

/** Resolves services from the container scope of the current tool call. */
export interface ServiceResolver {
  /** The instance bound to `id` in the current scope (application, evaluation or call). */
  get<T>(id: abstract new (...args: never[]) => T): T;
}

/**
 * Everything a tool handler receives besides its params: frozen, built for
 * one call and never reused. Also injectable: `@inject(ToolContext)` in a
 * section's constructor gives the current call's context.
 *
 * This layer declares what every call has; the runtime, which builds the
 * context, adds the evaluation's members (prompt, session, deadline, budget,
 * resources, adapter and `evaluate` for nested evaluations) in
 * `runtime/tool-context-members.ts`, so a tool is declared here without
 * depending on the runtime that runs it.
 */
export interface ToolContext {
  /** The provider's id for this call. */
  readonly callId: string;
  /** Fires when the evaluation's deadline passes or the evaluation is cancelled. */
  readonly signal: AbortSignal;
  /** Services of the current call scope; decorated sections are resolved through it. */
  readonly services: ServiceResolver;
}

/** Injection token of the current call's {@link ToolContext}, bound in each tool-call scope. */
export const ToolContext: ServiceIdentifier<ToolContext> = Symbol.for('affordance.tool-context');
