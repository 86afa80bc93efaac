/**
 * Every machine-readable error code affordance throws. Switch on `error.code`
 * rather than on class identity when several copies of the library may be loaded.
 */
export type AffordanceErrorCode =
  | 'budget_exceeded'
  | 'configuration'
  | 'deadline_exceeded'
  | 'evaluation_state'
  | 'filesystem'
  | 'media'
  | 'output_parse'
  | 'prompt_evaluation'
  | 'prompt_overrides'
  | 'prompt_render'
  | 'prompt_validation'
  | 'session_conflict'
  | 'tool_call_closed'
  | 'tool_validation';

/** Options shared by every affordance error constructor. */
export interface AffordanceErrorOptions {
  /** The underlying error, when this one wraps another. */
  readonly cause?: unknown;
}

const brand = Symbol.for('affordance.error');

/**
 * Base class of every error affordance throws. It carries a string `code`,
 * the standard `cause`, and a brand that survives duplicate copies of the
 * package, so `AffordanceError.is(value)` (and `Subclass.is(value)`) work where
 * `instanceof` would not.
 */
export class AffordanceError extends Error {
  /** The code subclasses claim; `undefined` on the base class matches any code. */
  static readonly errorCode: AffordanceErrorCode | undefined = undefined;

  /** Machine-readable kind of the error. */
  readonly code: AffordanceErrorCode;

  /** Brand read by {@link AffordanceError.is}; shared by every copy of the package. */
  readonly [brand] = true;

  constructor(code: AffordanceErrorCode, message: string, options: AffordanceErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.name = new.target.name;
  }

  /**
   * Type guard that recognises errors from any copy of affordance. Called on a
   * subclass (`ToolValidationError.is(e)`) it also checks that class's code.
   */
  static is<T extends abstract new (...args: never[]) => AffordanceError>(
    this: T & { readonly errorCode: AffordanceErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    try {
      const branded = (value as Record<symbol, unknown>)[brand] === true;
      if (!branded) return false;
      const expected = this.errorCode;
      return expected === undefined || (value as { code?: unknown }).code === expected;
    } catch {
      // A hostile value (a Proxy whose traps throw) is not an affordance error.
      return false;
    }
  }
}
