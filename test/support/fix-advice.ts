import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as nestCommon from '@nestjs/common';
import * as nestCore from '@nestjs/core';
import * as valibotJsonSchema from '@valibot/to-json-schema';
import * as classTransformer from 'class-transformer';
import * as classValidator from 'class-validator';
import * as inversify from 'inversify';
import ts from 'typescript';

import * as core from 'affordance';
import * as aiSdk from 'affordance/ai-sdk';
import * as bullmq from 'affordance/bullmq';
import * as evals from 'affordance/evals';
import * as inspector from 'affordance/inspector';
import * as mcp from 'affordance/mcp';
import * as durable from 'affordance/durable';
import * as nest from 'affordance/nest';
import * as anthropic from 'affordance/anthropic';
import * as openai from 'affordance/openai';
import * as filesystem from 'affordance/filesystem';
import * as planning from 'affordance/planning';
import * as provider from 'affordance/provider';
import * as testing from 'affordance/testing';

/** What each package entry point exports, by entry point. */
export const entryPoints: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  affordance: core,
  'affordance/testing': testing,
  'affordance/provider': provider,
  'affordance/openai': openai,
  'affordance/anthropic': anthropic,
  'affordance/planning': planning,
  'affordance/filesystem': filesystem,
  'affordance/nest': nest,
  'affordance/durable': durable,
  'affordance/bullmq': bullmq,
  'affordance/mcp': mcp,
  'affordance/ai-sdk': aiSdk,
  'affordance/evals': evals,
  'affordance/inspector': inspector,
};

/**
 * Libraries the advice may name besides affordance: the decorators a user
 * writes on DTOs come from class-validator and class-transformer, bindings
 * from inversify, Nest's own API from `@nestjs/*` (for `affordance/nest`),
 * valibot's JSON Schema converter from `@valibot/to-json-schema` (for a
 * valibot schema used as params), and `Object.assign`, `String(...)`, `Date`
 * are JavaScript.
 */
const foreign: readonly Readonly<Record<string, unknown>>[] = [
  classValidator,
  classTransformer,
  inversify,
  nestCommon,
  nestCore,
  valibotJsonSchema,
  globalThis,
];

/**
 * Names advice uses for the reader's own classes and values (`@Reducer(EventClass)`,
 * `class LookupParams { ... }`), not for anything affordance exports. Every entry is an
 * example the reader is meant to replace; anything else named must be public.
 */
export const readerPlaceholders: ReadonlySet<string> = new Set([
  'EventClass',
  'LookupParams',
  'MyService',
  'Params',
  'TaskAdded',
  'YourParams',
  // A Nest lifecycle method the reader implements.
  'onApplicationBootstrap',
]);

/**
 * Variables advice calls methods on (`session.slice(Plan)`, `clock.advance(1_000)`)
 * and the public class each stands for; the method must exist on it.
 */
const receivers: Readonly<Record<string, abstract new (...args: never[]) => unknown>> = {
  session: core.Session,
  clock: testing.ManualClock,
  registry: core.ResourceRegistry,
  container: inversify.Container,
};

/**
 * The type-only names each entry point's barrel exports (`export type { MediaPart }`,
 * `export { type EvalScore }`): advice may name an interface the reader implements or
 * passes, which has no runtime value to find.
 */
const publicTypes: ReadonlySet<string> = new Set(
  Object.keys(entryPoints).flatMap((entry) => {
    const barrel =
      entry === 'affordance' ? 'src/index.ts' : `src/${entry.slice('affordance/'.length)}/index.ts`;
    const text = readFileSync(join(process.cwd(), barrel), 'utf8');
    return [...text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)].flatMap((match) =>
      (match[2] as string)
        .split(',')
        .map((item) => item.trim())
        .filter((item) => match[1] !== undefined || item.startsWith('type '))
        .map(
          (item) =>
            item
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)
              .pop() ?? '',
        ),
    );
  }),
);

/** Where a name resolves: an entry point, or a foreign library the advice is about. */
export function publicValue(name: string): { found: boolean; value: unknown; from: string } {
  for (const [entry, exports] of Object.entries(entryPoints)) {
    if (Object.hasOwn(exports, name)) return { found: true, value: exports[name], from: entry };
  }
  if (publicTypes.has(name)) return { found: true, value: undefined, from: 'type' };
  for (const library of foreign) {
    if (name in library) return { found: true, value: library[name], from: 'foreign' };
  }
  return { found: false, value: undefined, from: '' };
}

/** A name the advice tells the reader to use, as `Name`, `Name.member` or `variable.method`. */
export interface NamedSymbol {
  readonly name: string;
  readonly member?: string;
  /** The public class a lowercase variable (`session`) stands for, when the name is one. */
  readonly receiver?: abstract new (...args: never[]) => unknown;
}

/**
 * The symbols a piece of advice names: decorators (`@Section(...)`), dotted
 * names on a capitalised receiver (`SliceOp.append`, `Deadline.in`), classes
 * constructed or called (`new TokenUsage(...)`, `ResourceToken<...>`),
 * CamelCase words (`MarkdownSection`, `ScriptedAdapter`) and camelCase
 * functions called bare (`installAffordance(container)`). Lowercase receivers
 * (`session.slice(...)`) are the reader's variables and are not looked up.
 */
export function namedSymbols(advice: string): NamedSymbol[] {
  const found = new Map<string, NamedSymbol>();
  const add = (name: string, member?: string): void => {
    const symbol: NamedSymbol = member === undefined ? { name } : { name, member };
    found.set(member === undefined ? name : `${name}.${member}`, symbol);
  };
  for (const match of advice.matchAll(
    /(?<![.\w$])([A-Z][A-Za-z0-9_]*)\.([A-Za-z_$][\w$]*)(?![\w$])/g,
  )) {
    add(match[1] as string, match[2]);
  }
  for (const match of advice.matchAll(/(?<![.\w$])([A-Z][A-Za-z0-9_]*)(?![\w$])/g)) {
    const word = match[1] as string;
    const index = match.index;
    const before = advice.slice(Math.max(0, index - 4), index);
    const after = advice.charAt(index + word.length);
    const codeLike =
      before.endsWith('@') ||
      before.endsWith('new ') ||
      after === '(' ||
      after === '<' ||
      /[a-z][A-Z]|[A-Z]{2}[a-z]/.test(word);
    if (codeLike && !/^[A-Z]+$/.test(word)) add(word);
  }
  // Functions called bare (`installAffordance(container)`) and lowercase decorators (`@optional()`).
  for (const match of advice.matchAll(/(?<![.\w$])([a-z]+[A-Z][A-Za-z0-9]*)\(|@([a-z]\w*)\(/g)) {
    add(match[1] ?? (match[2] as string));
  }
  for (const match of advice.matchAll(/(?<![.\w$])([a-z]\w*)\.([a-z]\w*)\(/g)) {
    const receiver = receivers[match[1] as string];
    if (receiver !== undefined) {
      found.set(match[0], { name: match[1] as string, member: match[2] as string, receiver });
    }
  }
  return [...found.values()];
}

/** Why `symbol` cannot be followed with the public entry points, or `undefined` when it can. */
export function unreachable(symbol: NamedSymbol): string | undefined {
  if (symbol.receiver !== undefined) {
    const method: unknown = (symbol.receiver.prototype as Record<string, unknown>)[
      symbol.member ?? ''
    ];
    return typeof method === 'function'
      ? undefined
      : `${symbol.receiver.name} has no method ${symbol.member ?? ''}`;
  }
  if (readerPlaceholders.has(symbol.name) && symbol.member === undefined) return undefined;
  const { found, value, from } = publicValue(symbol.name);
  if (!found) return `${symbol.name} is not exported by any entry point`;
  // Members are checked on affordance's own exports; a library's API (`ModuleRef.resolve`) is its own.
  if (symbol.member === undefined || from === 'foreign') return undefined;
  if (from === 'type')
    return `${symbol.name} is a type, so ${symbol.name}.${symbol.member} is not a value to use`;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return `${symbol.name} is not an object, so ${symbol.name}.${symbol.member} does not exist`;
  }
  // `ModuleRef.resolve()` names an instance method: look on the prototype too.
  const prototype: unknown = typeof value === 'function' ? value.prototype : undefined;
  const onPrototype =
    typeof prototype === 'object' && prototype !== null && symbol.member in prototype;
  if (!(symbol.member in value) && !onPrototype) {
    return `${symbol.name}.${symbol.member} does not exist`;
  }
  return undefined;
}

/** One piece of advice written in the sources. */
export interface SourceAdvice {
  readonly file: string;
  readonly line: number;
  /** The advice text; each `${...}` substitution is replaced by `…`. */
  readonly text: string;
}

/**
 * Every piece of "Fix:" advice in `src/`: `fix:` properties of error options
 * (ConfigurationError), the third element of a `problems` entry
 * (`[field, problem, fix]`), and the `fix` argument of `problem(subject, what, fix)` helpers.
 */
export function adviceInSources(root: string): SourceAdvice[] {
  const advice: SourceAdvice[] = [];
  for (const file of sourceFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
    const record = (node: ts.Expression): void => {
      const text = literalText(node);
      if (text === undefined) return;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      advice.push({ file: file.slice(root.length + 1), line: line + 1, text });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'fix') {
        record(node.initializer);
      } else if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'problem' &&
        node.arguments.length === 3
      ) {
        record(node.arguments[2] as ts.Expression);
      } else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.getText(source) === 'problems.push'
      ) {
        const [entry] = node.arguments;
        if (entry !== undefined && ts.isArrayLiteralExpression(entry)) {
          const fix = entry.elements[2];
          if (fix !== undefined) record(fix);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return advice;
}

function literalText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => `…${span.literal.text}`).join('');
  }
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  if (ts.isConditionalExpression(node)) {
    const parts = [literalText(node.whenTrue), literalText(node.whenFalse)];
    return parts.every((part) => part !== undefined) ? parts.join(' ') : undefined;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalText(node.left);
    const right = literalText(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    })
    .sort();
}
