/** JSON text of `value` with object keys sorted at every depth: equal data, equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort())
      sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/** A JSON copy of `value` (undefined fields dropped), as a cassette file holds it. */
export function jsonCopy(value: unknown): unknown {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
