/**
 * At most `max` of `lines`, followed by a `[truncated: N more lines]` note
 * when some were left out. `omitted` overrides the count of lines left out
 * (when `lines` is itself only part of the result).
 */
export function truncateLines(
  lines: readonly string[],
  max: number,
  omitted = Math.max(0, lines.length - max),
): string[] {
  const shown = lines.slice(0, max);
  if (omitted > 0) shown.push(`[truncated: ${omitted} more ${omitted === 1 ? 'line' : 'lines'}]`);
  return shown;
}

/** `line` cut to `max` characters, with a note saying how many were left out. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)} [line cut: ${line.length - max} more characters]`;
}
