import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';
import {
  type ClassRef,
  describePromptSubject,
  type PromptErrorFields,
} from './prompt-error-fields.js';

/** Rendering a prompt failed: a missing placeholder value, bad params, a failing `enabled` predicate. */
export class PromptRenderError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'prompt_render';

  /** Keys from the root section to the section concerned. */
  readonly sectionPath: readonly string[];
  /** The params class concerned, if any. */
  readonly paramsType: ClassRef | undefined;
  /** The placeholder concerned, if any. */
  readonly placeholder: string | undefined;

  /** @param message what failed and how to fix it. */
  constructor(message: string, fields: PromptErrorFields = {}) {
    super('prompt_render', message + describePromptSubject(fields), fields);
    this.sectionPath = fields.sectionPath ?? [];
    this.paramsType = fields.paramsType;
    this.placeholder = fields.placeholder;
  }
}
