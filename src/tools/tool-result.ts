import { inspect } from 'node:util';

import { dump } from '../schema/dump.js';
import { isMediaPart, type MediaPart } from '../content/content-part.js';
import { MediaError } from '../core/errors/media-error.js';
import { describeValue } from '../core/describe-value.js';

const NO_PARTS: readonly MediaPart[] = Object.freeze([]);

/** Fields of a {@link ToolResult}. */
export interface ToolResultInit<T> {
  /** A short message for the model, e.g. `Fetched entity 42.` */
  readonly message: string;
  /** The structured value, if any. */
  readonly value?: T | null | undefined;
  /** Whether the call succeeded; a failure rolls back the state the call touched. Defaults to `true`. */
  readonly success?: boolean;
  /** Keep `value` out of the model's context (only `message` is sent). Defaults to `false`. */
  readonly excludeValueFromContext?: boolean;
  /**
   * Images, documents or audio the model should see with the message (built
   * with `Media.image`, `Media.file`, `Media.audio`). Defaults to none.
   */
  readonly parts?: readonly MediaPart[] | undefined;
}

/** Options of {@link ToolResult.ok}. */
export interface ToolResultOptions {
  /** Images, documents or audio sent back to the model with the result. */
  readonly parts?: readonly MediaPart[] | undefined;
}

/** A value that renders itself for the model. */
export interface RenderableValue {
  /** Text for the model that replaces the JSON rendering of this value. */
  render(): unknown;
}

/**
 * What a tool handler returns: a message for the model, an optional value
 * and whether the call succeeded. Build it with {@link ToolResult.ok} or
 * {@link ToolResult.error}. Frozen once built; its value is frozen when the
 * session records the call.
 */
export class ToolResult<T = unknown> {
  /** A short message for the model. */
  readonly message: string;
  /** The structured value, or `null` when there is none. */
  readonly value: T | null;
  /** Whether the call succeeded. */
  readonly success: boolean;
  /** Keep `value` out of the model's context. */
  readonly excludeValueFromContext: boolean;
  /**
   * Media the model receives with the message: in the tool result where the
   * provider takes it (Anthropic, OpenAI Responses), else in a user message
   * right after the tool results, with a note naming the call. Empty by default.
   */
  readonly parts: readonly MediaPart[];

  constructor(init: ToolResultInit<T>) {
    this.message = init.message;
    this.value = init.value ?? null;
    this.success = init.success ?? true;
    this.excludeValueFromContext = init.excludeValueFromContext ?? false;
    this.parts = checkedParts(init.parts);
    if (!this.success && this.parts.length > 0) {
      throw new MediaError({
        subject: 'ToolResult',
        problem:
          'a failed result carries no media (the call is rolled back; the model reads the message).',
        fix: 'Describe the failure in the message, or return a success (ToolResult.withMedia) to show media.',
      });
    }
    // Frozen once built (a subclass freezes itself if it wants to): the session then walks only the value.
    if (new.target === ToolResult) Object.freeze(this);
  }

  /** A successful result carrying `value`. */
  static ok<T>(value: T, message = 'OK', options: ToolResultOptions = {}): ToolResult<T> {
    return new ToolResult({ message, value, success: true, parts: options.parts });
  }

  /**
   * A successful result that shows the model media: `ToolResult.withMedia('Screenshot of /checkout.', [Media.image(png)])`,
   * with an optional structured `value` rendered after the message as usual.
   */
  static withMedia<T = null>(
    message: string,
    parts: readonly MediaPart[],
    value?: T,
  ): ToolResult<T> {
    return new ToolResult<T>({ message, value: value ?? null, success: true, parts });
  }

  /** A failed result: the model reads `message`, and state the call changed is rolled back. */
  static error(message: string): ToolResult<never> {
    return new ToolResult<never>({ message, value: null, success: false });
  }

  /** Whether the call succeeded (alias of `success`). */
  get ok(): boolean {
    return this.success;
  }

  /** The failure message when the call failed, otherwise `undefined`. */
  get error(): string | undefined {
    return this.success ? undefined : this.message;
  }

  /**
   * The value as the model reads it: the value's own `render()` when it has
   * one, otherwise deterministic JSON with null fields dropped; `''` for no value.
   */
  render(): string {
    return renderToolValue(this.value);
  }

  /**
   * The provider-facing tool message: `message`, a blank line, then the
   * rendering, or `message` alone when the value is excluded or renders empty.
   */
  toModelText(): string {
    if (this.excludeValueFromContext) return this.message;
    const rendered = this.render();
    return rendered === '' ? this.message : `${this.message}\n\n${rendered}`;
  }
}

/** `parts` checked (media parts only) and frozen; the shared empty list when none. */
function checkedParts(parts: readonly MediaPart[] | undefined): readonly MediaPart[] {
  if (parts === undefined || parts.length === 0) return NO_PARTS;
  const list: unknown = parts;
  if (!Array.isArray(list)) {
    throw new MediaError({
      subject: 'ToolResult parts',
      problem: `parts must be an array of media parts, got ${describeValue(list)}.`,
      fix: 'Pass [Media.image(bytes), Media.file(pdf)]: parts built by the Media factories.',
    });
  }
  list.forEach((part: unknown, index) => {
    if (!isMediaPart(part)) {
      throw new MediaError({
        subject: `ToolResult parts[${index}]`,
        problem: `is ${describeValue(part)}, not a media part (text goes in the message).`,
        fix: 'Build each part with Media.image, Media.file or Media.audio; put text in the message.',
      });
    }
  });
  return Object.freeze([...parts]);
}

/**
 * Renders a tool value for the model (see {@link ToolResult.render}).
 * Arrays render item by item, null and undefined items dropped: a JSON array
 * when every item renders as JSON, otherwise the non-empty renderings joined by blank lines.
 */
export function renderToolValue(value: unknown): string {
  return renderValue(value, undefined);
}

/** `openArrays`: the arrays being rendered, created by the first one (a text value needs none). */
function renderValue(value: unknown, openArrays: Set<readonly unknown[]> | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return renderArray(value, openArrays);
  const own = renderWithOwnMethod(value);
  if (own !== undefined) return own;
  try {
    return JSON.stringify(dump(value) ?? null);
  } catch {
    // A value dump cannot represent (a cycle): show it as Node would rather than fail the call.
    return showAsNode(value);
  }
}

function showAsNode(value: unknown): string {
  return inspect(value, { depth: 4, breakLength: Infinity });
}

function renderWithOwnMethod(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const render = (value as Partial<RenderableValue>).render;
  if (typeof render !== 'function') return undefined;
  try {
    const text = render.call(value);
    return typeof text === 'string' ? text : String(text);
  } catch {
    return undefined;
  }
}

function renderArray(
  items: readonly unknown[],
  given: Set<readonly unknown[]> | undefined,
): string {
  const openArrays = given ?? new Set<readonly unknown[]>();
  // An array that contains itself cannot be rendered item by item.
  if (openArrays.has(items)) return showAsNode(items);
  // Dropped like null fields, so a null item cannot turn a JSON array into joined text.
  const present = items.filter((item) => item !== null && item !== undefined);
  if (present.length === 0) return '[]';
  openArrays.add(items);
  let rendered: string[];
  try {
    rendered = present.map((item) => renderValue(item, openArrays));
  } finally {
    openArrays.delete(items);
  }
  const parsed: unknown[] = [];
  for (const text of rendered) {
    try {
      parsed.push(JSON.parse(text));
    } catch {
      return rendered.filter((text) => text !== '').join('\n\n');
    }
  }
  return JSON.stringify(parsed);
}
