import { ConfigurationError } from '../core/errors/configuration-error.js';

/** Tags a session sets itself from its options. */
const reservedTags: readonly string[] = ['sessionId', 'parentSessionId'];

/**
 * The tags given to a `Session`, checked (an object of string values, none of
 * the tags the session sets itself) and copied, frozen. @internal
 * @throws ConfigurationError naming the tag and the fix.
 */
export function checkTags(
  tags: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const given: unknown = tags;
  if (typeof given !== 'object' || given === null) {
    throw new ConfigurationError({
      subject: 'Session.tags',
      problem: 'must be an object of string values.',
      fix: "Pass tags such as { agent: 'planner' }.",
    });
  }
  for (const [key, value] of Object.entries(tags)) {
    if (typeof value !== 'string') {
      throw new ConfigurationError({
        subject: `Session.tags.${key}`,
        problem: `must be a string, got ${typeof value}.`,
        fix: `Convert it, e.g. ${key}: String(value).`,
      });
    }
    if (reservedTags.includes(key)) {
      throw new ConfigurationError({
        subject: `Session.tags.${key}`,
        problem: 'is set by the session itself.',
        fix: `Pass ${key === 'sessionId' ? 'sessionId' : 'parent'} as a Session option instead of a tag.`,
      });
    }
  }
  return Object.freeze({ ...tags });
}
