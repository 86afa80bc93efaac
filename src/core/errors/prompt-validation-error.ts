import { AffordanceError, type AffordanceErrorCode } from './affordance-error.js';
import {
  type ClassRef,
  describePromptSubject,
  type PromptErrorFields,
} from './prompt-error-fields.js';

/**
 * A prompt, section or tool definition breaks a rule of the model (bad name,
 * unknown placeholder, duplicate tool). Thrown at construction, never at call time.
 */
export class PromptValidationError extends AffordanceError {
  static override readonly errorCode: AffordanceErrorCode = 'prompt_validation';

  /** Keys from the root section to the section concerned. */
  readonly sectionPath: readonly string[];
  /** The params class concerned, if any. */
  readonly paramsType: ClassRef | undefined;
  /** The placeholder, tool name or option concerned, if any. */
  readonly placeholder: string | undefined;

  /** @param message the rule that was broken and how to fix it. */
  constructor(message: string, fields: PromptErrorFields = {}) {
    super('prompt_validation', message + describePromptSubject(fields), fields);
    this.sectionPath = fields.sectionPath ?? [];
    this.paramsType = fields.paramsType;
    this.placeholder = fields.placeholder;
  }
}
