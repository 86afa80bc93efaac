import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Class, DataClass, ResultDeclaration } from '../core/class-type.js';
import type { ToolExample } from './tool-example.js';
import type { PolicyRef, ToolApproval } from './tool-policy.js';
import { toolNameFromMethod } from './tool-name.js';
import type { ToolRetry } from './tool-retry.js';
import { checkSynchronous } from './check-synchronous.js';
import {
  isStandardSchema,
  type JsonSchemaConverter,
  type StandardSchemaV1,
} from '../schema/standard-schema.js';
import type { JsonSchemaObject } from '../schema/json-schema-params.js';
import { isPlainObject } from '../schema/plain-object.js';
import {
  getOwnMetadata,
  mergeOverClassChain,
  metadataKeys,
  updateOwnMetadata,
} from '../metadata/metadata-store.js';

/** Options of the `@Tool` decorator. */
export interface ToolOptions {
  /** The tool's name; defaults to the method name in snake_case (`lookupEntity` → `lookup_entity`). */
  readonly name?: string;
  /** What the tool does, for the model: 1-200 ASCII characters. */
  readonly description: string;
  /**
   * The params class, a Standard Schema (e.g. a zod 4 object) or a plain
   * JSON Schema object (the method's first parameter is then typed by hand,
   * e.g. `z.infer<typeof schema>`).
   * A class is normally read from the method's first parameter type; give it
   * here when your compiler emits no decorator metadata (esbuild, some SWC setups).
   */
  readonly params?: DataClass | StandardSchemaV1 | JsonSchemaObject;
  /** Writes the JSON Schema of a Standard Schema `params` (see `ToolDefinitionInit.paramsJsonSchema`). */
  readonly paramsJsonSchema?: JsonSchemaConverter;
  /** The result class, or `[ResultClass]` for a list. */
  readonly result?: ResultDeclaration;
  /** Worked examples, rendered into the section text. */
  readonly examples?: readonly ToolExample[];
  /** Whether prompt overrides may replace the description. Defaults to `true`. */
  readonly acceptsOverrides?: boolean;
  /** The tool only reads state; read-only calls of one turn may run concurrently. */
  readonly readOnly?: boolean;
  /** Gates checked before each call of this tool (see `ToolPolicy`). */
  readonly policies?: readonly PolicyRef[];
  /** Whether a call waits for a person's approval: `true`, or a predicate of the params and context. */
  readonly approval?: ToolApproval;
  /**
   * The method returns its `ToolResult` directly, never a promise (see
   * `ToolDefinitionInit.synchronous`). Inferred from the declared return type
   * (`ToolResult<...>`, not `async`); give it where your compiler emits no
   * decorator metadata, or `false` to keep tracking a method declared so.
   */
  readonly synchronous?: boolean;
  /** The most milliseconds a call may take (see `ToolDefinitionInit.timeoutMs`). */
  readonly timeoutMs?: number;
  /** A repeated call has the same effect as one (see `ToolDefinitionInit.idempotent`). */
  readonly idempotent?: boolean;
  /** Retries on transient errors, for read-only or idempotent tools (see `ToolRetry`). */
  readonly retry?: ToolRetry;
}

/** What `@Tool` records for one method; validated when read. @internal */
export interface ToolMethodRecord {
  readonly methodName: string;
  readonly options: ToolOptions;
  readonly reflectLoaded: boolean;
  readonly designParamTypes: readonly unknown[] | undefined;
  readonly declaredParameterCount: number;
  /** The decorated method itself. */
  readonly method: unknown;
  /** Whether the method's declared return type is `ToolResult<...>` and it is not `async` (compiler metadata). */
  readonly synchronous: boolean;
}

/** A validated `@Tool` method of a section class. */
export interface ToolMethodMetadata {
  /** The method implementing the tool. */
  readonly methodName: string;
  /** The tool's name. */
  readonly name: string;
  /** The params class, or `undefined` for a tool without arguments or with a Standard Schema. */
  readonly paramsType: DataClass | undefined;
  /** The Standard Schema or plain JSON Schema given as `params`, if any. */
  readonly paramsSchema: StandardSchemaV1 | JsonSchemaObject | undefined;
  /** The decorator's options. */
  readonly options: ToolOptions;
  /** The decorated method itself. */
  readonly method: unknown;
  /** Whether the method returns a `ToolResult` directly, not a promise: as declared, or as its options say. */
  readonly synchronous: boolean;
}

type RecordMap = ReadonlyMap<string, ToolMethodRecord>;

/** Stores the record of one `@Tool` method on its class. @internal */
export function recordToolMethod(cls: object, record: ToolMethodRecord): void {
  updateOwnMetadata<RecordMap>(
    cls,
    metadataKeys.tools,
    () => new Map(),
    (current) => new Map(current).set(record.methodName, record),
  );
}

const cache = new WeakMap<object, readonly ToolMethodMetadata[]>();

/** Whether `cls` (or a class it extends) has `@Tool` methods. */
export function hasToolMethods(cls: Class): boolean {
  return readToolMethods(cls).length > 0;
}

/**
 * The validated `@Tool` methods of a class and its base classes, in declaration
 * order (base first). A subclass method of the same name overrides its base's tool.
 *
 * @throws ConfigurationError naming the class, method and fix when decorator metadata is unusable.
 */
export function readToolMethods(
  cls: abstract new (...args: never[]) => unknown,
): readonly ToolMethodMetadata[] {
  const cached = cache.get(cls);
  if (cached !== undefined) return cached;
  const records = mergeOverClassChain(cls, (c) => getOwnMetadata<RecordMap>(c, metadataKeys.tools));
  const methods = [...records.values()].map((record) => validateRecord(cls.name, record));
  const seen = new Map<string, string>();
  for (const method of methods) {
    const other = seen.get(method.name);
    if (other !== undefined) {
      throw new ConfigurationError({
        subject: `${cls.name}.${method.methodName}`,
        problem: `tool name '${method.name}' is already used by ${cls.name}.${other}.`,
        fix: 'Give one of the @Tool methods another `name`.',
      });
    }
    seen.set(method.name, method.methodName);
  }
  const frozen = Object.freeze(methods);
  cache.set(cls, frozen);
  return frozen;
}

const builtinTypes = new Set<unknown>([
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Array,
  Promise,
  Date,
  Map,
  Set,
]);

function methodMetadata(
  record: ToolMethodRecord,
  name: string,
  paramsType: DataClass | undefined,
  paramsSchema?: StandardSchemaV1 | JsonSchemaObject,
): ToolMethodMetadata {
  const { methodName, options, method } = record;
  const synchronous = options.synchronous ?? record.synchronous;
  return { methodName, name, paramsType, paramsSchema, options, method, synchronous };
}

function validateRecord(className: string, record: ToolMethodRecord): ToolMethodMetadata {
  const subject = `@Tool ${className}.${record.methodName}`;
  const name = record.options.name ?? toolNameFromMethod(record.methodName);
  if (record.declaredParameterCount < 2) {
    throw new ConfigurationError({
      subject,
      problem: `the method takes ${record.declaredParameterCount} parameter(s); a tool handler takes (params, context).`,
      fix: `Declare it as \`${record.methodName}(params: Params, context: ToolContext)\`; a tool without arguments takes \`(_params: undefined, context: ToolContext)\`.`,
    });
  }
  checkSynchronous(subject, record.options.synchronous, record.method, 'method');
  const explicit = record.options.params;
  if (explicit !== undefined) {
    if (isStandardSchema(explicit) || isPlainObject(explicit))
      return methodMetadata(record, name, undefined, explicit);
    if (typeof explicit !== 'function' || builtinTypes.has(explicit) || explicit === Object) {
      throw nonClassParams(subject, explicit);
    }
    return methodMetadata(record, name, explicit);
  }
  return methodMetadata(record, name, reflectedParamsType(subject, record));
}

/** The params class from the method's decorator metadata, or `undefined` when it takes none. */
function reflectedParamsType(subject: string, record: ToolMethodRecord): DataClass | undefined {
  if (!record.reflectLoaded) {
    throw new ConfigurationError({
      subject,
      problem:
        'reflect-metadata was not loaded when the class was decorated, so the params type is unknown.',
      fix: "Add `import 'reflect-metadata';` as the first import of your program's entry point (and of your test setup).",
    });
  }
  const paramTypes = record.designParamTypes;
  if (paramTypes === undefined) {
    throw new ConfigurationError({
      subject,
      problem: 'the compiler emitted no decorator metadata, so the params class is unknown.',
      fix: 'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json and compile with tsc, ts-jest or ts-node (esbuild and tsx drop the metadata), or pass `params: YourParams` to @Tool.',
    });
  }
  const first = paramTypes[0];
  if (first === undefined) return undefined;
  return checkReflectedClass(subject, first);
}

/** The reflected type of the first parameter, refused unless it is a params class. */
function checkReflectedClass(subject: string, first: unknown): DataClass {
  if (first === Function) {
    throw new ConfigurationError({
      subject,
      problem:
        'the params type reads as `Function`: the params class was imported with `import type` (or is a function type), which erases it at runtime.',
      fix: 'Import the params class as a value (`import { LookupParams } from ...`, not `import type`), or pass `params: LookupParams` to @Tool.',
    });
  }
  if (first === Object) {
    // Per-file compilers (ts-jest with isolatedModules, SWC) cannot see that an `import type`
    // names a class, so they emit `Object` for it, exactly as for an interface.
    throw new ConfigurationError({
      subject,
      problem:
        'the params type reads as `Object`: it is an interface, a type alias, an object or union type (e.g. `Params | undefined`), ' +
        'or a class imported with `import type` (per-file compilers such as ts-jest with isolatedModules emit `Object` for it). None of these exists at runtime.',
      fix:
        'Declare the params as a class whose fields carry class-validator decorators (e.g. `class LookupParams { @IsString() id!: string }`), ' +
        'import it as a value (`import { LookupParams } from ...`, not `import type`), or pass `params: LookupParams` to @Tool.',
    });
  }
  if (typeof first !== 'function' || builtinTypes.has(first)) {
    throw nonClassParams(subject, first);
  }
  return first as DataClass;
}

function nonClassParams(subject: string, value: unknown): ConfigurationError {
  const shown = typeof value === 'function' ? (value as { name: string }).name : typeof value;
  return new ConfigurationError({
    subject,
    problem: `the params type is ${shown}, not a params class.`,
    fix: 'Wrap the arguments in a class with class-validator decorators, e.g. `class Params { @IsString() text!: string }`, or pass a Standard Schema object as `params` to @Tool; the model always sends an object.',
  });
}
