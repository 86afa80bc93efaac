/** One content block of a Messages API request or response, as JSON. @internal */
export type Block = Readonly<Record<string, unknown>>;

/** Whether `value` is a content block: an object with a string `type`. @internal */
export function isBlock(value: unknown): value is Block {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Record<string, unknown>)['type'] === 'string'
  );
}
