import type { DataSchema } from '../schema/standard-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PolicyRef } from '../tools/tool-policy.js';
import type { SummarizedSection } from './render-sections.js';
import type { AnswerPolicyRef, InputPolicyRef } from './guardrail-policy.js';
import { type ToolParamHint, toolParamHints } from './tool-param-hints.js';

const NO_POLICIES: readonly PolicyRef[] = Object.freeze([]);
const NO_SUMMARIES: readonly SummarizedSection[] = Object.freeze([]);

/** Fields of a {@link RenderedPrompt}. @internal */
export interface RenderedPromptInit {
  readonly ns: string;
  readonly key: string;
  readonly name: string;
  readonly text: string;
  readonly tools: readonly ToolDefinition[];
  readonly toolParamDescriptions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Each tool's policies in checking order (tool, sections innermost first, prompt); tools without any are absent. */
  readonly policies?: ReadonlyMap<string, readonly PolicyRef[]> | undefined;
  /** The tools by name, when the caller has that map already (it is built from `tools` otherwise). */
  readonly toolsByName?: ReadonlyMap<string, ToolDefinition> | undefined;
  readonly outputType: DataSchema | undefined;
  readonly outputContainer: 'object' | 'array' | undefined;
  /** The sections rendered as summaries, in render order. */
  readonly summarized?: readonly SummarizedSection[] | undefined;
  readonly inputPolicies?: readonly InputPolicyRef[] | undefined;
  readonly answerPolicies?: readonly AnswerPolicyRef[] | undefined;
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
  /** The declared output class or Standard Schema (of one element, for list outputs), if any. */
  readonly outputType: DataSchema | undefined;
  /** `'array'` for `output: [Class]`, `'object'` for `output: Class`, `undefined` for free text. */
  readonly outputContainer: 'object' | 'array' | undefined;
  /**
   * The sections rendered as summaries, in render order: `path`, `hasTools`,
   * and `text()`, the section and its subtree rendered in full.
   */
  readonly summarizedSections: readonly SummarizedSection[];
  /** The input guardrails that apply: the prompt's, then its full sections'. */
  readonly inputPolicies: readonly InputPolicyRef[];
  /** The answer guardrails that apply: the prompt's, then its full sections'. */
  readonly answerPolicies: readonly AnswerPolicyRef[];

  readonly #toolsByName: ReadonlyMap<string, ToolDefinition>;
  readonly #policies: ReadonlyMap<string, readonly PolicyRef[]>;
  #hints: ReadonlyMap<string, ReadonlyMap<string, ToolParamHint>> | undefined;

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
    this.#toolsByName = init.toolsByName ?? new Map(init.tools.map((tool) => [tool.name, tool]));
    this.#policies = init.policies ?? new Map();
    this.summarizedSections = init.summarized ?? NO_SUMMARIES;
    this.inputPolicies = init.inputPolicies ?? [];
    this.answerPolicies = init.answerPolicies ?? [];
    Object.freeze(this);
  }

  /** The section at dotted `path` when it was rendered as a summary. */
  summarizedSection(path: string): SummarizedSection | undefined {
    return this.summarizedSections.find((section) => section.path === path);
  }

  /**
   * Tool name → params field → {@link ToolParamHint}: the description (as in
   * `toolParamDescriptions`), JSON type, whether required, and default of
   * every top-level field of each offered tool's params, read from the JSON
   * Schema the tool is offered with. Built on first read.
   */
  get toolParamHints(): ReadonlyMap<string, ReadonlyMap<string, ToolParamHint>> {
    this.#hints ??= toolParamHints(this.tools, this.toolParamDescriptions);
    return this.#hints;
  }

  /** The tool called `name`, or `undefined`. */
  tool(name: string): ToolDefinition | undefined {
    return this.#toolsByName.get(name);
  }

  /** The rendered text. */
  /**
   * The policies a call of `toolName` is checked against, in order: the
   * tool's, its sections' (innermost first), the prompt's.
   */
  policiesOf(toolName: string): readonly PolicyRef[] {
    return this.#policies.get(toolName) ?? NO_POLICIES;
  }

  toString(): string {
    return this.text;
  }
}
