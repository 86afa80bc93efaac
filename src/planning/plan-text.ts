import { ToolValidationError } from '../index.js';

/** Longest objective or step title, in characters (code points) after trimming. */
export const MAX_PLAN_TEXT_LENGTH = 500;

/**
 * An objective or step title as the plan stores it: trimmed, not empty, at
 * most {@link MAX_PLAN_TEXT_LENGTH} characters.
 * @param label the field's name for the message: `Objective` or `Title`.
 * @param path where the value sits in the arguments when it is a list item, e.g. `steps[1]`.
 * @throws ToolValidationError "Objective must not be empty." or "steps[1]: Title must be <= 500 characters."
 */
export function planText(value: string, label: 'Objective' | 'Title', path = ''): string {
  const text = value.trim();
  let problem: string | undefined;
  if (text === '') problem = `${label} must not be empty.`;
  else if (codePoints(text) > MAX_PLAN_TEXT_LENGTH) {
    problem = `${label} must be <= ${MAX_PLAN_TEXT_LENGTH} characters.`;
  }
  if (problem !== undefined) throw new ToolValidationError([{ path, message: problem }]);
  return text;
}

/** Length in code points, so an emoji counts as one character as it does for the model. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
