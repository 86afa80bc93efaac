import type { DataClass } from '../core/class-type.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** Fields of a {@link RenderedPrompt}. @internal */
export interface RenderedPromptInit {
  readonly ns: string;
  readonly key: string;
  readonly name: string;
  readonly text: string;
  readonly tools: readonly ToolDefinition[];
  readonly toolParamDescriptions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly outputType: DataClass | undefined;
  readonly outputContainer: 'object' | 'array' | undefined;
}

/**
 * A prompt rendered for one evaluation: the markdown text the model reads, the
 * tools of the enabled sections in depth-first order, and the output type.
 */
export class RenderedPrompt {
  /** The prompt's namespace. */
  readonly ns: string;
  /** The prompt's key. */
  readonly key: string;
  /** The prompt's display name. */
  readonly name: string;
  /** The rendered markdown. */
  readonly text: string;
  /** Tools of the enabled sections, depth-first, in declaration order. */
  readonly tools: readonly ToolDefinition[];
  /** Tool name → params field → description, from `@Describe` and overrides. */
  readonly toolParamDescriptions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The declared output class (the element class for list outputs), if any. */
  readonly outputType: DataClass | undefined;
  /** `'array'` for `output: [Class]`, `'object'` for `output: Class`, `undefined` for free text. */
  readonly outputContainer: 'object' | 'array' | undefined;

  readonly #toolsByName: ReadonlyMap<string, ToolDefinition>;

  /** @internal */
  constructor(init: RenderedPromptInit) {
    this.ns = init.ns;
    this.key = init.key;
    this.name = init.name;
    this.text = init.text;
    this.tools = init.tools;
    this.toolParamDescriptions = init.toolParamDescriptions;
    this.outputType = init.outputType;
    this.outputContainer = init.outputContainer;
    this.#toolsByName = new Map(init.tools.map((tool) => [tool.name, tool]));
    Object.freeze(this);
  }

  /** The tool called `name`, or `undefined`. */
  tool(name: string): ToolDefinition | undefined {
    return this.#toolsByName.get(name);
  }

  /** The rendered text. */
  toString(): string {
    return this.text;
  }
}
