const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * Appends an object key to a field path: `address` + `zip` → `address.zip`.
 * Keys that are not identifiers are quoted as JSON strings: `meta["a b"]`.
 * The root path is `''`.
 * @internal
 */
export function joinFieldPath(path: string, key: string): string {
  if (identifier.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Appends an array index to a field path: `items` + 2 → `items[2]`. @internal */
export function joinIndexPath(path: string, index: number | string): string {
  return `${path}[${String(index)}]`;
}
