import type { Prompt } from '../index.js';
import type { CodecClass, SessionCodec } from '../durable/index.js';

/**
 * Registers in `codec` the classes an evaluation of `prompt` puts in its
 * session by itself: its tools' params and result classes, its output class,
 * and the classes of the render params given. Classes nested inside them, and
 * the application's own slice classes, are the application's to register.
 */
export function registerPromptClasses(
  codec: SessionCodec,
  prompt: Prompt,
  params: readonly object[],
): void {
  for (const tool of prompt.tools) {
    if (tool.paramsType !== undefined) codec.register(tool.paramsType as CodecClass);
    if (tool.resultType !== undefined) codec.register(tool.resultType as CodecClass);
  }
  if (prompt.outputType !== undefined) codec.register(prompt.outputType as CodecClass);
  for (const value of params) {
    const type: unknown = Object.getPrototypeOf(value);
    if (type !== Object.prototype && type !== null) codec.register(value.constructor as CodecClass);
  }
}
