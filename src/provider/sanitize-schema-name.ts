/** The longest schema name OpenAI accepts in a `json_schema` response format. */
const maxLength = 64;

/**
 * Turns a prompt name into a name providers accept for a structured-output
 * schema: every character outside `[A-Za-z0-9_-]` becomes `_`, leading and
 * trailing underscores are dropped, the result is cut to 64 characters, and
 * an empty result becomes `prompt`.
 */
export function sanitizeSchemaName(promptName: string): string {
  const name = trimUnderscores(
    trimUnderscores(promptName.replace(/[^A-Za-z0-9_-]/gu, '_')).slice(0, maxLength),
  );
  return name === '' ? 'prompt' : name;
}

function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x5f) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x5f) end--;
  return text.slice(start, end);
}
