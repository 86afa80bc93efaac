import { ConfigurationError } from '../core/errors/configuration-error.js';

/**
 * A tool's `synchronous` option as given (`false` when left out), checked for
 * `subject` (`Tool 'name'`, `@Tool Class.method`): refused when it is not a
 * boolean, or `true` for `fn` (the handler or method) declared `async`, which
 * always returns a promise. @internal
 */
export function checkSynchronous(
  subject: string,
  given: unknown,
  fn: unknown,
  what: 'handler' | 'method',
): boolean {
  if (given === undefined || given === false) return false;
  if (given !== true) {
    throw new ConfigurationError({
      subject,
      problem: `synchronous must be true or false, got ${typeof given}.`,
      fix: `Pass \`synchronous: true\` for a ${what} that returns its ToolResult directly, or leave it out.`,
    });
  }
  if (typeof fn === 'function' && fn.constructor.name === 'AsyncFunction') {
    throw new ConfigurationError({
      subject,
      problem: `the ${what} is async, so it returns a promise, but synchronous: true says it returns its ToolResult directly.`,
      fix: `Remove \`synchronous: true\`, or make the ${what} return its ToolResult directly.`,
    });
  }
  return true;
}
