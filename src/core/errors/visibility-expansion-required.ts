import type { AffordanceError, AffordanceErrorCode } from './affordance-error.js';
import { PromptEvaluationError } from './prompt-evaluation-error.js';

/** Fields of a {@link VisibilityExpansionRequired}. */
export interface VisibilityExpansionRequiredOptions {
  /** The dotted paths of the sections the model asked to open. */
  readonly sectionKeys: readonly string[];
  /** Why the model asked, in its words (may be empty). */
  readonly reason: string;
  /** The prompt being evaluated (`ns/key`). */
  readonly prompt?: string | undefined;
}

/**
 * The model asked to open summarized sections of a prompt whose `disclosure`
 * is `'raise'`: the evaluation stops with this error, its session as it was
 * before the call. Re-run with the sections opened: pass
 * `visibility: error.requestedOverrides` to `evaluate`, or dispatch a
 * `SectionVisibilityOverride` per section into the session. A
 * `PromptEvaluationError` of phase `tool`.
 */
export class VisibilityExpansionRequired extends PromptEvaluationError {
  /** The dotted paths of the sections to open. */
  readonly sectionKeys: readonly string[];
  /** Why the model asked. */
  readonly reason: string;
  /** The visibility to render with: each section `full`. */
  readonly requestedOverrides: Readonly<Record<string, 'full'>>;

  constructor(options: VisibilityExpansionRequiredOptions) {
    const keys = Object.freeze([...options.sectionKeys]);
    super(
      `Visibility expansion required for sections: ${keys.join(', ')}. Reason: ${options.reason || '(none given)'}. ` +
        'Fix: re-run the evaluation with `visibility: error.requestedOverrides`, or record a SectionVisibilityOverride per section in the session.',
      { phase: 'tool', prompt: options.prompt },
    );
    this.sectionKeys = keys;
    this.reason = options.reason;
    this.requestedOverrides = Object.freeze(
      Object.fromEntries(keys.map((key) => [key, 'full' as const])),
    );
  }

  /** Whether `value` is a `VisibilityExpansionRequired` (from any copy of affordance). */
  static override is<T extends abstract new (...args: never[]) => AffordanceError>(
    this: T & { readonly errorCode: AffordanceErrorCode | undefined },
    value: unknown,
  ): value is InstanceType<T> {
    return (
      PromptEvaluationError.is(value) &&
      Array.isArray((value as { sectionKeys?: unknown }).sectionKeys) &&
      typeof (value as { requestedOverrides?: unknown }).requestedOverrides === 'object'
    );
  }
}
