/**
 * Whether `value` nests objects or arrays more than `max` levels deep (`[1]`
 * is one level, `[[1]]` two). Walks with its own stack rather than recursion,
 * so measuring a value of any depth never overflows the call stack; stops at
 * the first path that goes too deep. Meant for values read from JSON (trees):
 * a value that shares objects is walked once per path. @internal
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { readonly item: unknown; readonly depth: number }[] = [{ item: value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { item, depth } = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const inner of Object.values(item)) stack.push({ item: inner, depth: depth + 1 });
  }
  return false;
}
