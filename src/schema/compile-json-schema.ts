import { createRequire } from 'node:module';

import type { Ajv as AjvInstance, ErrorObject, Options, ValidateFunction } from 'ajv';

import { describeThrown } from '../core/errors/describe-thrown.js';
import { checkJsonSchema } from './check-json-schema.js';
import { jsonSchemaFormats } from './json-schema-formats.js';
import { linearSchemaPattern } from './linear-schema-pattern.js';
import { addUniqueItems, useLinearUniqueItems } from './unique-items.js';
import type { JsonSchemaProblem } from './json-schema-problem.js';
import { isPlainObject } from './plain-object.js';

/** A JSON Schema compiled by ajv: validates a value, leaving the errors in `errors`. @internal */
export type CompiledJsonSchema = ValidateFunction;

/** What {@link compileJsonSchema} returns. @internal */
export type JsonSchemaCompilation =
  | { readonly ok: true; readonly validate: CompiledJsonSchema }
  | { readonly ok: false; readonly problems: readonly JsonSchemaProblem[] };

type AjvClass = new (options: Options) => AjvInstance;

/** A pattern the linear-time engine refused, thrown out of ajv's compile. */
class RefusedPattern extends Error {}

/**
 * ajv's `code.regExp`: every `pattern` and `patternProperties` key runs on
 * the linear-time engine (`linearSchemaPattern`), so no argument can make a
 * schema's pattern backtrack (`checkJsonSchema` has refused the others first).
 */
const linearEngine = Object.assign(
  (source: string) => {
    const compiled = linearSchemaPattern(source);
    if (!compiled.ok) throw new RefusedPattern(compiled.problem);
    const linear = compiled.pattern;
    return { test: (text: string) => linear.test(text), toString: () => `/${source}/u` };
  },
  { code: 'affordanceLinearPattern' },
);

/** What ajv logged while compiling the current schema (compiling is synchronous). */
const warnings: string[] = [];

const options: Options = {
  allErrors: true,
  strict: true,
  // Unknown keywords are logged, then refused below unless they are `x-` extensions (annotations).
  strictSchema: 'log',
  logger: {
    log: () => undefined,
    warn: (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
    },
    error: () => undefined,
  },
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  validateFormats: true,
  formats: Object.fromEntries(jsonSchemaFormats),
  code: { regExp: linearEngine },
};

const instances = new Map<string, AjvInstance>();

/**
 * The shared ajv instance of a dialect, loaded on first use: ajv is a
 * dependency of the package, but costs tens of milliseconds to load, so an
 * application without JSON Schema params never loads it.
 */
function ajvFor(dialect: 'draft-07' | '2020-12'): AjvInstance {
  let ajv = instances.get(dialect);
  if (ajv === undefined) {
    const require = createRequire(import.meta.url);
    const module = require(dialect === 'draft-07' ? 'ajv' : 'ajv/dist/2020') as {
      default: AjvClass;
    };
    ajv = new module.default(options);
    addUniqueItems(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

const drafts = /^https?:\/\/json-schema\.org\/(draft-0[67])\/schema#?$/;
const modern = /^https:\/\/json-schema\.org\/draft\/(2019-09|2020-12)\/schema$/;

/**
 * Compiles a tool's params JSON Schema with ajv (draft-07 for a schema that
 * says `$schema: draft-07` or `draft-06`, 2020-12 otherwise), once: patterns
 * on the linear-time engine, the formats of `jsonSchemaFormats`, every
 * error collected (`allErrors`), unknown keywords refused (ajv's strict
 * mode) except `x-` extensions, which are annotations. Returns the validator
 * or every problem found. @internal
 */
export function compileJsonSchema(schema: unknown): JsonSchemaCompilation {
  const checked = checkJsonSchema(schema);
  if (checked.length > 0) return { ok: false, problems: checked };
  if (!isPlainObject(schema)) {
    return {
      ok: false,
      problems: [{ pointer: '', keyword: 'type', message: 'The root schema must be an object.' }],
    };
  }
  const { $schema: dialect, $id: _id, ...rest } = schema;
  let ajv: AjvInstance;
  if (dialect === undefined || (typeof dialect === 'string' && modern.test(dialect)))
    ajv = ajvFor('2020-12');
  else if (typeof dialect === 'string' && drafts.test(dialect)) ajv = ajvFor('draft-07');
  else {
    const message = `${JSON.stringify(dialect)} is not supported: use draft-07 or 2020-12 (or leave it out).`;
    return { ok: false, problems: [{ pointer: '', keyword: '$schema', message }] };
  }
  const copy = structuredClone(rest);
  useLinearUniqueItems(copy);
  warnings.length = 0;
  try {
    const validate = ajv.compile(copy);
    const unknown = warnings.flatMap((warning) => {
      const keyword = /unknown keyword: "([^"]*)"/.exec(warning)?.[1];
      return keyword === undefined || keyword.startsWith('x-') ? [] : [keyword];
    });
    if (unknown.length === 0) return { ok: true, validate };
    const problems = [...new Set(unknown)].map((keyword) => ({
      pointer: '',
      keyword,
      message: `"${keyword}" is not a JSON Schema keyword the validator knows.`,
    }));
    return { ok: false, problems };
  } catch (error) {
    return { ok: false, problems: [problemOf(error)] };
  } finally {
    ajv.removeSchema(copy);
  }
}

/** The keyword and place of an error ajv threw while compiling. */
function problemOf(error: unknown): JsonSchemaProblem {
  const message = describeThrown(error);
  if (error instanceof RefusedPattern) return { pointer: '', keyword: 'pattern', message };
  const unknownKeyword = /unknown keyword: "([^"]*)"/.exec(message);
  if (unknownKeyword !== null) {
    const keyword = unknownKeyword[1] ?? '';
    return {
      pointer: '',
      keyword,
      message: `"${keyword}" is not a JSON Schema keyword the validator knows.`,
    };
  }
  const format = /unknown format "([^"]*)" ignored in schema at path "#?([^"]*)"/.exec(message);
  if (format !== null) {
    const known = [...jsonSchemaFormats.keys()].join(', ');
    return {
      pointer: format[2] ?? '',
      keyword: 'format',
      message: `"${format[1]}" is not supported: use ${known}.`,
    };
  }
  if (message.includes("can't resolve reference"))
    return {
      pointer: '',
      keyword: '$ref',
      message: `${message} (only local references, #/$defs/... or #/definitions/..., are followed).`,
    };
  const invalid = /schema is invalid: data(\S*) (.*)$/.exec(message);
  if (invalid !== null) {
    const path = (invalid[1] ?? '').replace(/^\//, '').split('/');
    const keyword = path.at(-1) ?? 'type';
    const pointer = path.length > 1 ? `/${path.slice(0, -1).join('/')}` : '';
    return { pointer, keyword, message: `Is not valid JSON Schema: ${invalid[2] ?? message}.` };
  }
  return { pointer: '', keyword: 'schema', message };
}

/** ajv's errors of the last `validate` call. @internal */
export type JsonSchemaErrors = readonly ErrorObject[];
