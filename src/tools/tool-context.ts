/** Resolves services from the container scope of the current tool call. */
export interface ServiceResolver {
  /** The instance bound to `id` in the current scope (application, evaluation or call). */
  get<T>(id: abstract new (...args: never[]) => T): T;
}

/**
 * Everything a tool handler receives besides its params: frozen, built for
 * one call and never reused.
 */
export interface ToolContext {
  /** The provider's id for this call. */
  readonly callId: string;
  /** Fires when the evaluation's deadline passes or the evaluation is cancelled. */
  readonly signal: AbortSignal;
  /** Services of the current call scope; decorated sections are resolved through it. */
  readonly services: ServiceResolver;
}
