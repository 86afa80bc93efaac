import type { ContextId } from '@nestjs/core';

import type { CallToolOptions, EvaluateOptions } from '../index.js';

/** Options of `AffordanceService.evaluate`: the runtime's options plus the Nest context to resolve sections in. */
export interface NestEvaluateOptions extends EvaluateOptions {
  /**
   * The request this evaluation serves (e.g. `@Req()` in a controller). Its
   * request-scoped providers, injected into sections, are the ones Nest gave
   * the request's controller, and `@Inject(REQUEST)` sees this request.
   */
  readonly request?: object | undefined;
  /**
   * The Nest context id to resolve request- and transient-scoped sections in.
   * Default: the request's, else the enclosing evaluation's (when nested),
   * else a new one for this evaluation.
   */
  readonly contextId?: ContextId | undefined;
}

/** Options of `AffordanceService.callTool`: the runtime's call options plus the Nest context to resolve sections in. */
export interface NestCallToolOptions extends CallToolOptions {
  /** The request the call serves; its request-scoped providers are the ones sections see (see {@link NestEvaluateOptions.request}). */
  readonly request?: object | undefined;
  /** The Nest context id to resolve request- and transient-scoped sections in; default: the request's, else a new one. */
  readonly contextId?: ContextId | undefined;
}
