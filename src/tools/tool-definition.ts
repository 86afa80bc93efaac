import { ConfigurationError } from '../core/errors/configuration-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import {
  assertParamsClassUsable,
  assertResultClassUsable,
} from '../schema/assert-params-class-usable.js';
import type { DataClass, ResultDeclaration } from '../core/class-type.js';
import type { ToolContext } from './tool-context.js';
import { ToolExample } from './tool-example.js';
import { validateDescription, validateToolName } from './tool-name.js';
import type { ToolResult } from './tool-result.js';
import { checkPolicies, type PolicyRef, type ToolApproval } from './tool-policy.js';
import { checkSynchronous } from './check-synchronous.js';
import type { JsonSchemaConverter, StandardSchemaV1 } from '../schema/standard-schema.js';
import { type ToolParams, toolParamsOf } from '../schema/tool-params.js';
import type { JsonSchemaObject } from '../schema/json-schema-params.js';
import { isPlainObject } from '../schema/plain-object.js';
import { checkRetry, checkTimeout, type ToolRetry } from './tool-retry.js';

/** A tool handler: receives the parsed params and the call's context; sync or async. */
// Method syntax keeps `params` bivariant, so a ToolDefinition<MyParams> fits where any tool is expected.
export type ToolHandler<P = unknown, R = unknown> = {
  handle(params: P, context: ToolContext): ToolResult<R> | Promise<ToolResult<R>>;
}['handle'];

/** Fields of a {@link ToolDefinition}, shared with `@Tool` options. */
export interface ToolDefinitionInit<P = unknown, R = unknown> {
  /** `^[a-z0-9_-]{1,64}$`; surrounding whitespace is an error. */
  readonly name: string;
  /** What the tool does, for the model: 1-200 ASCII characters, stored stripped. */
  readonly description: string;
  /**
   * The params: a class-validator params class, a Standard Schema object
   * (e.g. `z.object({...})` from zod 4), whose output type types the handler's
   * params, or a plain JSON Schema object (draft-07 or 2020-12, validated by
   * ajv; the handler's params are `unknown` unless the tool's type parameter
   * says otherwise). Omit for a tool that takes no arguments.
   */
  readonly params?: DataClass<P> | StandardSchemaV1<unknown, P> | JsonSchemaObject | undefined;
  /**
   * Writes the JSON Schema of a Standard Schema `params` whose library does
   * not implement Standard JSON Schema (zod 4:
   * `(schema) => z.toJSONSchema(schema, { io: 'input' })`). Used instead of
   * the library's own support when given; ignored for a params class.
   */
  readonly paramsJsonSchema?: JsonSchemaConverter | undefined;
  /** The result class, or `[ResultClass]` for a list; needed for examples and the contract hash. */
  readonly result?: ResultDeclaration | undefined;
  /**
   * The handler, called as `handler(params, context)`. Required unless the tool
   * is a {@link NativeTool}. It may declare fewer parameters (`() => ...`):
   * JavaScript passes the context anyway, and a function's `length` cannot
   * tell a handler without `context` from one with a default or rest
   * parameter, so the handler's arity is not checked (its type is).
   */
  readonly handler?: ToolHandler<P, R> | undefined;
  /**
   * The handler returns its `ToolResult` directly, never a promise. Its calls
   * then skip tracking asynchronous context (on Node 20 that tracking turns on
   * promise hooks for the whole process while a handler runs); a promise
   * returned anyway fails the call, naming this option. Defaults to `false`;
   * a `@Tool` method is synchronous when its declared return type is
   * `ToolResult<...>` and it is not `async`, or when its options say so.
   */
  readonly synchronous?: boolean | undefined;
  /** Worked examples, rendered into the section text. */
  readonly examples?: readonly ToolExample<P>[] | undefined;
  /** Whether prompt overrides may replace the description. Defaults to `true`. */
  readonly acceptsOverrides?: boolean | undefined;
  /** The tool only reads state; calls of read-only tools in one turn may run concurrently. Defaults to `false`. */
  readonly readOnly?: boolean | undefined;
  /** Gates checked before each call (see {@link ToolPolicy}); the tool's own come first. */
  readonly policies?: readonly PolicyRef[] | undefined;
  /**
   * Whether a call waits for a person's approval: `true`, or a predicate of the
   * params and context. The evaluation then pauses with the call pending and
   * resumes with `runtime.resume(prompt, state, decisions)`.
   */
  readonly approval?: ToolApproval<P> | undefined;
  /**
   * The most milliseconds a call may take (all its attempts): at the limit
   * its `context.signal` aborts, its state changes are rolled back and the
   * model reads that it timed out (outcome `timeout`). Defaults to the
   * prompt's `toolTimeoutMs`; no limit when neither is set.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Calling the tool twice with the same arguments has the same effect as
   * calling it once: a state-changing tool needs it to take `retry`.
   */
  readonly idempotent?: boolean | undefined;
  /** Retries of calls whose handler throws a transient error (see {@link ToolRetry}). */
  readonly retry?: ToolRetry | undefined;
}

/**
 * A tool the model can call: name, description, params and result classes,
 * handler and examples. `@Tool` methods and `new ToolDefinition({...})` both
 * produce this; nothing downstream knows which form was used.
 */
export class ToolDefinition<P = unknown, R = unknown> {
  /** The tool's name as the model sees it. */
  readonly name: string;
  /** The tool's description, stripped. */
  readonly description: string;
  /** The params class, or `undefined` for a tool without arguments or with a Standard Schema. */
  readonly paramsType: DataClass<P> | undefined;
  /** How the params are described and parsed (class, Standard Schema or JSON Schema); `undefined` without arguments. */
  readonly params: ToolParams<P> | undefined;
  /** The result class (the element class for list results), if declared. */
  readonly resultType: DataClass | undefined;
  /** `'array'` when the result is declared as `[ResultClass]`, otherwise `'object'`. */
  readonly resultContainer: 'object' | 'array';
  /** The handler, or `undefined` for a provider-executed tool. */
  readonly handler: ToolHandler<P, R> | undefined;
  /** Whether the handler returns its result directly, never a promise (see {@link ToolDefinitionInit.synchronous}). */
  readonly synchronous: boolean;
  /** Validated worked examples. */
  readonly examples: readonly ToolExample<P>[];
  /** Whether prompt overrides may replace the description. */
  readonly acceptsOverrides: boolean;
  /** Whether the tool only reads state. */
  readonly readOnly: boolean;
  /** The tool's own policies. */
  readonly policies: readonly PolicyRef[];
  /** When a call needs approval; `undefined` when never. */
  readonly approval: Exclude<ToolApproval<P>, false> | undefined;
  /** The tool's own time limit per call, if any (see {@link ToolDefinitionInit.timeoutMs}). */
  readonly timeoutMs: number | undefined;
  /** Whether calling it again with the same arguments has no further effect. */
  readonly idempotent: boolean;
  /** How failed calls are retried, if they are. */
  readonly retry: ToolRetry | undefined;

  constructor(init: ToolDefinitionInit<P, R>) {
    this.params = toolParamsOf(init.params, `Tool '${init.name}'`, {
      jsonSchema: init.paramsJsonSchema,
    });
    this.paramsType = this.params?.paramsType;
    this.name = validateToolName(init.name, this.paramsType);
    this.description = validateDescription(
      init.description,
      'Tool description',
      this.paramsType,
      'description',
    );
    const result = init.result;
    this.resultType = Array.isArray(result)
      ? (result as readonly [DataClass])[0]
      : (result as DataClass | undefined);
    this.resultContainer = Array.isArray(result) ? 'array' : 'object';
    if (this.resultType !== undefined) assertResultClassUsable(this.resultType, this.name);
    this.handler = init.handler;
    this.synchronous = checkSynchronous(
      `Tool '${this.name}'`,
      init.synchronous,
      init.handler,
      'handler',
    );
    this.acceptsOverrides = init.acceptsOverrides ?? this.defaultAcceptsOverrides();
    this.readOnly = init.readOnly ?? false;
    this.policies = checkPolicies(`Tool '${this.name}'`, init.policies);
    this.approval = checkApproval(this.name, init.approval);
    this.timeoutMs = checkTimeout(`Tool '${this.name}'`, init.timeoutMs, 'timeoutMs');
    this.idempotent = init.idempotent ?? false;
    this.retry = checkRetry(`Tool '${this.name}'`, init.retry, this.readOnly, this.idempotent);
    this.checkHandler();
    this.examples = Object.freeze(
      (init.examples ?? []).map((example) => this.checkExample(example)),
    );
  }

  /** Whether the provider executes this tool (see `NativeTool`). */
  readonly native: boolean = false;

  /** A copy of this tool with another description (used by prompt overrides). */
  withDescription(description: string): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    (copy as { description: string }).description = validateDescription(
      description,
      'Tool description',
      this.paramsType,
      'description',
    );
    return copy;
  }

  /** Default of `acceptsOverrides` for this kind of tool. */
  protected defaultAcceptsOverrides(): boolean {
    return true;
  }

  /**
   * Checks the handler and the params class when the tool is built, so a params
   * class that could never validate fails at startup (its JSON Schema is built
   * on first use).
   */
  protected checkHandler(): void {
    if (typeof this.handler !== 'function') {
      throw new PromptValidationError(
        `Tool '${this.name}' has no handler. Pass \`handler: (params, context) => ToolResult\`, ` +
          'or declare a provider-executed tool with NativeTool.',
        { paramsType: this.paramsType, placeholder: 'handler' },
      );
    }
    if (this.paramsType !== undefined) assertParamsClassUsable(this.paramsType);
  }

  private checkExample(example: unknown): ToolExample<P> {
    const fields = { paramsType: this.paramsType, placeholder: 'examples' };
    if (!(example instanceof ToolExample)) {
      throw new PromptValidationError(
        `Tool '${this.name}': examples must be ToolExample instances (new ToolExample({ description, input, output })).`,
        fields,
      );
    }
    const description = validateDescription(
      example.description,
      'Tool example description',
      this.paramsType,
      'description',
    );
    this.checkExampleInput(example.input, fields);
    this.checkExampleOutput(example.output, fields);
    return Object.freeze(
      new ToolExample<P, unknown>({
        description,
        input: example.input as P | undefined,
        output: example.output,
      }),
    );
  }

  private checkExampleInput(
    input: unknown,
    fields: { paramsType: DataClass | undefined; placeholder: string },
  ): void {
    const expected = this.paramsType;
    const schema = this.params?.schema;
    const ok =
      schema !== undefined
        ? isPlainObject(input)
        : expected === undefined
          ? input === undefined
          : isExactInstance(input, expected);
    if (!ok) {
      const wanted =
        schema !== undefined
          ? 'a plain object of its params schema'
          : expected === undefined
            ? 'no input'
            : `an instance of ${expected.name}`;
      throw new PromptValidationError(
        `Tool example input must match the tool params type (tool '${this.name}' expects ` +
          `${wanted}, got ${describeValue(input)}).`,
        fields,
      );
    }
  }

  private checkExampleOutput(
    output: unknown,
    fields: { paramsType: DataClass | undefined; placeholder: string },
  ): void {
    const expected = this.resultType;
    let ok: boolean;
    let wanted: string;
    if (expected === undefined) {
      ok = output === undefined;
      wanted = 'no output (declare `result` to give one)';
    } else if (this.resultContainer === 'array') {
      ok = Array.isArray(output) && output.every((item) => isExactInstance(item, expected));
      wanted = `an array of ${expected.name} instances`;
    } else {
      ok = isExactInstance(output, expected);
      wanted = `an instance of ${expected.name}`;
    }
    if (!ok) {
      throw new PromptValidationError(
        `Tool example output must match the tool result type (tool '${this.name}' expects ${wanted}, ` +
          `got ${describeValue(output)}).`,
        fields,
      );
    }
  }
}

function checkApproval<P>(
  name: string,
  approval: ToolApproval<P> | undefined,
): Exclude<ToolApproval<P>, false> | undefined {
  if (approval === undefined || approval === false) return undefined;
  if (approval === true || typeof approval === 'function') return approval;
  throw new ConfigurationError({
    subject: `Tool '${name}'`,
    problem: `approval must be true, false or a function, got ${typeof approval}.`,
    fix: 'Pass `approval: true` to approve every call, or `approval: (params, context) => boolean` to decide per call.',
  });
}

function isExactInstance(value: unknown, cls: DataClass): boolean {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === cls.prototype
  );
}

function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const ctor = (value as { constructor?: { name?: string } }).constructor;
    return `an instance of ${ctor?.name ?? 'Object'}`;
  }
  return `a ${typeof value}`;
}
