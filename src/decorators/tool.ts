import { ConfigurationError } from '../core/errors/configuration-error.js';
import {
  getDesignParamTypes,
  getDesignReturnType,
  isReflectMetadataLoaded,
} from '../metadata/metadata-store.js';
import { recordToolMethod, type ToolOptions } from '../tools/tool-metadata.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { DataClass } from '../core/class-type.js';
import type { JsonSchemaObject } from '../schema/json-schema-params.js';
import type { InferSchemaOutput, StandardSchemaV1 } from '../schema/standard-schema.js';

/**
 * A `@Tool` method taking params of type `P`. Method syntax keeps the check
 * bivariant: a first parameter typed with a subtype or supertype of `P`
 * passes, an unrelated type is a compile error.
 */
type ToolMethodOf<P> = {
  method(params: P, context: ToolContext): unknown;
}['method'];

/** What `@Tool({ params: schema })` returns: a decorator for methods whose params fit the schema's output. */
export type SchemaToolDecorator<P> = <M extends ToolMethodOf<P>>(
  prototype: object,
  property: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

/** The value type a `result:` declaration gives a tool's `ToolResult`: the class's instances, a list of them, or anything. */
export type ToolResultValueOf<D> = D extends readonly [new (...args: never[]) => infer R]
  ? R[]
  : D extends new (...args: never[]) => infer R
    ? R
    : unknown;

/**
 * The signature a `@Tool` method must have: `(params, context: ToolContext)`
 * returning a `ToolResult` of the declared result (or a promise of one).
 * The params are an object (the params class) or `undefined` (a tool
 * without arguments).
 */
type ToolHandlerMethod<R> = {
  method(
    params: object | undefined,
    context: ToolContext,
  ): ToolResult<R | null> | PromiseLike<ToolResult<R | null>>;
}['method'];

/** What a method that takes fewer than the two parameters is told at compile time. */
type TakesParamsAndContext<M> = M extends (...args: infer A) => unknown
  ? A['length'] extends 0 | 1
    ? 'a @Tool method takes (params, context: ToolContext)'
    : string | symbol
  : never;

/**
 * What `@Tool({ ... })` returns: a decorator for methods that fit a tool
 * handler, `(params, context: ToolContext) => ToolResult<R> | Promise<ToolResult<R>>`
 * with `R` from `result:`. A method that does not fit is a compile error.
 */
export type ToolMethodDecorator<R> = <M extends ToolHandlerMethod<R>>(
  prototype: object,
  property: TakesParamsAndContext<M>,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

/**
 * Marks a method of a `@Section` class as a tool. The method receives the
 * parsed params (an instance of its first parameter's class) and the call's
 * `ToolContext`, and returns a `ToolResult` (or a promise of one). With
 * `params: schema` (a Standard Schema such as a zod 4 object) the method gets
 * the schema's output value instead; type its first parameter by hand
 * (`z.infer<typeof schema>`): a decorator cannot type a method's parameters,
 * but a type unrelated to the schema's output is a compile error.
 *
 * @example
 * \@Tool({ name: 'lookup_entity', description: 'Fetch an entity.', result: LookupResult })
 * async lookup(params: LookupParams, context: ToolContext): Promise<ToolResult<LookupResult>> { ... }
 */
export function Tool<S extends StandardSchemaV1>(
  options: ToolOptions & { readonly params: S },
): SchemaToolDecorator<InferSchemaOutput<S>>;
export function Tool<O extends ToolOptions & { readonly params?: DataClass | JsonSchemaObject }>(
  options: O,
): ToolMethodDecorator<ToolResultValueOf<O['result']>>;
export function Tool(options: ToolOptions): MethodDecorator {
  return (prototype, property, descriptor) => {
    if (typeof prototype === 'function') {
      throw new ConfigurationError({
        subject: `@Tool ${prototype.name}.${String(property)}`,
        problem:
          'the method is static; tools are called on the section instance resolved for each call.',
        fix: 'Make it an instance method (remove `static`).',
      });
    }
    const method = descriptor.value;
    recordToolMethod(prototype.constructor, {
      methodName: String(property),
      options,
      reflectLoaded: isReflectMetadataLoaded(),
      designParamTypes: getDesignParamTypes(prototype, property),
      declaredParameterCount: typeof method === 'function' ? method.length : 0,
      method,
      synchronous: declaresResult(prototype, property, method),
    });
  };
}

/** Whether the method is declared to return a `ToolResult` itself (compiler metadata), not a promise. */
function declaresResult(prototype: object, property: string | symbol, method: unknown): boolean {
  if (typeof method !== 'function' || method.constructor.name === 'AsyncFunction') return false;
  return getDesignReturnType(prototype, property) === ToolResult;
}
