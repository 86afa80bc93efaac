import { acceptsForeign } from './accepts-foreign.js';
import type { CompiledClass, CompiledField, FastBuilder } from './compile-params.js';
import type { FieldShape } from './params-shape.js';
import { isPlainObject, reservedKeys } from './plain-object.js';

/**
 * The deepest nesting a generated builder handles; deeper arguments are left
 * to the screened path, which allows 64 levels.
 */
const depthLimit = 40;

/** What {@link copyData} returns for a value the screening would report. */
const invalid: unique symbol = Symbol('invalid');

/** What the generated code calls, passed to it as one argument. */
const helpers = Object.freeze({
  acceptsForeign,
  buildList,
  copyData,
  enumHit,
  invalid,
  isPlainObject,
});

/** Numbers the generated sources, so no two classes share a source (and V8's type feedback). */
let serial = 0;

/**
 * Gives `root` and every class compiled with it a {@link FastBuilder}: one
 * function per class, generated with `new Function`, that screens, checks
 * and builds in one pass over the arguments. The generated source is made of
 * fixed fragments and field indexes only: field names, checks, classes and
 * type functions reach the code as values of its arguments, never as text.
 * Leaves every builder `undefined` when code generation is refused (a content
 * security policy, `--disallow-code-generation-from-strings`); the screened
 * path then builds alone.
 * @internal
 */
export function generateBuilders(root: CompiledClass): void {
  const classes = reachableClasses(root);
  let builders: FastBuilder[];
  try {
    builders = classes.map(generateBuilder);
  } catch {
    return;
  }
  classes.forEach((compiled, index) => {
    compiled.fast = builders[index];
    prepareInstanceLayout(compiled);
  });
}

/**
 * A performance hint for V8, with no other effect: adds the fields a fresh
 * instance lacks to one throwaway instance, in declaration order, as named
 * properties. V8 then keeps the builder's instances, which follow the same
 * path, in fast mode; keyed stores alone (class-transformer's too) turn an
 * instance into a dictionary past a dozen added properties.
 */
function prepareInstanceLayout(compiled: CompiledClass): void {
  try {
    const instance = new compiled.cls();
    for (const { key } of compiled.fields) {
      if (Object.hasOwn(instance, key)) continue;
      Object.defineProperty(instance, key, {
        value: undefined,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  } catch {
    // Only a hint: the builder works the same without it.
  }
}

/** `root` and the classes of its nested fields, transitively, each once. */
function reachableClasses(root: CompiledClass): CompiledClass[] {
  const classes = [root];
  // The loop also visits the classes it appends.
  for (const compiled of classes) {
    for (const field of compiled.fields) {
      const nested = field.nested?.compiled;
      if (nested !== undefined && !classes.includes(nested)) classes.push(nested);
    }
  }
  return classes;
}

type BuilderFactory = (
  fields: readonly CompiledField[],
  cls: CompiledClass['cls'],
  h: typeof helpers,
) => FastBuilder;

function generateBuilder(compiled: CompiledClass): FastBuilder {
  serial++;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source holds no data: see generateBuilders
  const factory = new Function('fields', 'Cls', 'h', builderSource(compiled)) as BuilderFactory;
  return factory(compiled.fields, compiled.cls, helpers);
}

/**
 * The source of a builder factory. It binds each field's key, checks, class
 * and type function to constants read from `fields`, then returns the
 * builder. The builder reads the fields in declaration order, expecting them
 * in that order among the arguments' own keys (a field that is not the next
 * key is looked up); every own key must be a field, or it gives up. Each
 * value is checked as the screening, class-transformer and class-validator
 * would treat it, and assigned in declaration order, which must then be the
 * arguments' order too (class-transformer assigns in that order) unless a
 * fresh instance already has every field.
 */
function builderSource(compiled: CompiledClass): string {
  const lines = [
    `'use strict'; // affordance params builder ${serial}`,
    'const { acceptsForeign, buildList, copyData, enumHit, invalid, isPlainObject } = h;',
  ];
  compiled.fields.forEach((field, index) => lines.push(...bindings(field, index)));
  lines.push(
    'return function build(o, d) {',
    'const keys = Object.keys(o);',
    'const n = keys.length;',
    'let j = 0;',
    'let m = 0;',
    'let moved = false;',
    'let v;',
    'const inst = new Cls();',
  );
  compiled.fields.forEach((field, index) => lines.push(fieldCode(field, index)));
  const order = compiled.predefined ? '' : ' && !moved';
  lines.push(`return m === n${order} ? inst : undefined;`, '};');
  return lines.join('\n');
}

/** The constants one field's code reads. */
function bindings(field: CompiledField, i: number): string[] {
  const lines = [`const f${i} = fields[${i}];`, `const k${i} = f${i}.key;`];
  field.checks.forEach((_check, m) => lines.push(`const c${i}_${m} = f${i}.checks[${m}];`));
  if (field.nested !== undefined) {
    lines.push(`const n${i} = f${i}.nested.compiled;`, `const t${i} = f${i}.nested.typeFunction;`);
  }
  if (field.enumGuard !== undefined) lines.push(`const g${i} = f${i}.enumGuard;`);
  return lines;
}

/** Reads field `i` (the next own key, or looked up), then checks and assigns it, or checks its default. */
function fieldCode(field: CompiledField, i: number): string {
  const absent = field.nullMeansAbsent ? 'v === undefined || v === null' : 'v === undefined';
  return [
    `if (j < n && keys[j] === k${i}) { v = o[k${i}]; j++; m++; }`,
    `else if (Object.hasOwn(o, k${i})) { v = o[k${i}]; m++; moved = true; } else v = undefined;`,
    `if (${absent}) {`,
    absentCode(field, i),
    '} else {',
    field.nested === undefined ? dataCode(field, i) : nestedCode(field, i),
    checksCode(field, i),
    `inst[k${i}] = v;`,
    '}',
  ].join('\n');
}

/** An absent field: the screening requires it, or class-validator checks the instance's default. */
function absentCode(field: CompiledField, i: number): string {
  if (field.required) return 'return undefined;';
  const skip = field.skipsNullish ? 'v !== undefined && v !== null && ' : '';
  return `v = inst[k${i}]; if (${skip}!acceptsForeign(f${i}, v)) return undefined;`;
}

/** A field without `@ValidateNested()`: JSON scalars as they are, objects and arrays copied. */
function dataCode(field: CompiledField, i: number): string {
  const guard = field.enumGuard === undefined ? '' : `if (enumHit(g${i}, v)) return undefined;\n`;
  const copy = 'v = copyData(v, d + 1); if (v === invalid) return undefined;';
  if (field.list) {
    return `${guard}if (v !== null) { if (!Array.isArray(v)) return undefined; ${copy} }`;
  }
  return (
    `${guard}if (typeof v === 'object') { if (v !== null) { ${copy} } } ` +
    `else if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;`
  );
}

/**
 * A `@ValidateNested()` field: `@Type`'s function must name the compiled
 * class, called as class-transformer calls it; then a plain object (or an
 * array of them) is built by the nested class's builder, and `null` passes
 * only `@IsOptional()`.
 */
function nestedCode(field: CompiledField, i: number): string {
  const build = field.list
    ? `if (!Array.isArray(v) || d > ${depthLimit}) return undefined; v = buildList(n${i}, v, d + 1);`
    : `if (!isPlainObject(v) || d > ${depthLimit}) return undefined; v = n${i}.fast(v, d + 1);`;
  return [
    `if (t${i}({ newObject: inst, object: o, property: k${i} }) !== n${i}.cls) return undefined;`,
    `if (v !== null) { ${build} if (v === undefined) return undefined; }`,
    field.skipsNullish ? '' : 'else return undefined;',
  ].join('\n');
}

/** Every constraint of the field on the value; `@IsOptional()` lets `null` through. */
function checksCode(field: CompiledField, i: number): string {
  if (field.checks.length === 0) return '';
  const calls = field.checks.map((_check, m) => `c${i}_${m}(v)`).join(' && ');
  const skip = field.skipsNullish ? 'v !== null && ' : '';
  return `if (${skip}!(${calls})) return undefined;`;
}

/** Builds every item of a nested list with the nested class's builder; `undefined` if one fails. */
function buildList(
  nested: CompiledClass,
  values: readonly unknown[],
  depth: number,
): unknown[] | undefined {
  const build = nested.fast;
  if (build === undefined) return undefined;
  const items: unknown[] = [];
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- by index, as the screening reads arrays: no iterator runs
  for (let index = 0; index < values.length; index++) {
    const item = values[index];
    if (!isPlainObject(item)) return undefined;
    const built = build(item, depth + 1);
    if (built === undefined) return undefined;
    items.push(built);
  }
  return items;
}

/**
 * A copy of free-form JSON data made of fresh plain objects and arrays, as
 * the screening copies it; {@link invalid} for anything the screening would
 * report (a reserved key, a value that is not JSON, too deep) and for
 * `undefined` inside an array.
 */
function copyData(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    const type = typeof value;
    return value === null || type === 'string' || type === 'number' || type === 'boolean'
      ? value
      : invalid;
  }
  if (depth > depthLimit) return invalid;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    // By index, as in buildList.
    for (let index = 0; index < value.length; index++) {
      const item = copyData((value as readonly unknown[])[index], depth + 1);
      if (item === invalid) return invalid;
      items.push(item);
    }
    return items;
  }
  if (!isPlainObject(value)) return invalid;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (reservedKeys.has(key)) return invalid;
    const item = value[key];
    if (item === undefined) continue;
    const copied = copyData(item, depth + 1);
    if (copied === invalid) return invalid;
    // Plain assignment is safe: reserved keys such as `__proto__` never get this far.
    copy[key] = copied;
  }
  return copy;
}

/** Whether the screening reports a numeric enum's member name in the value (or its items). */
function enumHit(guard: NonNullable<FieldShape['enumGuard']>, value: unknown): boolean {
  if (guard.each && Array.isArray(value)) {
    return value.some((item: unknown) => guard.names.includes(item));
  }
  return guard.names.includes(value);
}
