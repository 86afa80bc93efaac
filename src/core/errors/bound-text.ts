/**
 * `text` cut to at most `max` characters, with a visible marker saying how
 * much was left out, so a message fed back to a model (or logged) stays
 * bounded and the reader knows it was cut. A surrogate pair is never split.
 * @internal
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut]`;
}
