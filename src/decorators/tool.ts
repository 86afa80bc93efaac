import { ConfigurationError } from '../core/errors/configuration-error.js';
import {
  getDesignParamTypes,
  getDesignReturnType,
  isReflectMetadataLoaded,
} from '../metadata/metadata-store.js';
import { recordToolMethod, type ToolOptions } from '../tools/tool-metadata.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ToolContext } from '../tools/tool-context.js';
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
export function Tool(options: ToolOptions): MethodDecorator;
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
