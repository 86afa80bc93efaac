import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { ClassRef } from '../core/errors/prompt-error-fields.js';

/** The pattern every tool name must match (OpenAI's function name rule, lowercase). */
export const TOOL_NAME_PATTERN = /^[a-z0-9_-]{1,64}$/;

const MAX_DESCRIPTION_LENGTH = 200;

/** Checks a tool name and returns it unchanged; surrounding whitespace is an error, never stripped. @internal */
export function validateToolName(name: string, paramsType: ClassRef | undefined): string {
  const trimmed = name.trim();
  if (trimmed !== name) {
    // Suggest the stripped name only when it would pass; otherwise point at the rule.
    const fix = TOOL_NAME_PATTERN.test(trimmed)
      ? `Write '${trimmed}'.`
      : `Remove it and use a name matching ${TOOL_NAME_PATTERN.source}.${suggestion(trimmed)}`;
    throw new PromptValidationError(`Tool name must not contain surrounding whitespace. ${fix}`, {
      paramsType,
      placeholder: trimmed,
    });
  }
  if (name === '') {
    throw new PromptValidationError(
      'Tool name must match the OpenAI function name constraints (1-64 lowercase ASCII letters, digits, underscores, or hyphens).',
      { paramsType, placeholder: '' },
    );
  }
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new PromptValidationError(
      `Tool name must match the OpenAI function name constraints (pattern: ${TOOL_NAME_PATTERN.source}).` +
        suggestion(name),
      { paramsType, placeholder: name },
    );
  }
  return name;
}

function suggestion(name: string): string {
  const candidate = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .slice(0, 64);
  return TOOL_NAME_PATTERN.test(candidate) && candidate !== name ? ` Try '${candidate}'.` : '';
}

/**
 * Checks a tool (or tool example) description and returns it stripped: 1-200 ASCII characters.
 * @internal
 */
export function validateDescription(
  description: string,
  subject: 'Tool description' | 'Tool example description',
  paramsType: ClassRef | undefined,
  placeholder: string,
): string {
  const stripped = description.trim();
  if (stripped.length === 0 || stripped.length > MAX_DESCRIPTION_LENGTH) {
    throw new PromptValidationError(
      `${subject} must be 1-${MAX_DESCRIPTION_LENGTH} ASCII characters (got ${stripped.length}).`,
      { paramsType, placeholder },
    );
  }
  // eslint-disable-next-line no-control-regex -- the rule is "ASCII", control characters included
  const nonAscii = /[^\x00-\x7f]/.exec(stripped);
  if (nonAscii !== null) {
    throw new PromptValidationError(
      `${subject} must be ASCII (found '${nonAscii[0]}' at index ${nonAscii.index}).`,
      { paramsType, placeholder },
    );
  }
  return stripped;
}

/** `lookupEntity` → `lookup_entity`: the default tool name of a decorated method. @internal */
export function toolNameFromMethod(methodName: string): string {
  return methodName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
