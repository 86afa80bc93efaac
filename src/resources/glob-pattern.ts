import { GlobMatcher, type GlobState, type GlobStep } from './glob-matcher.js';

/**
 * Bounds on a glob pattern. Matching costs O(path length × pattern size)
 * (see {@link GlobMatcher}); these keep the pattern side small. @internal
 */
export const globPatternLimits = Object.freeze({
  /** Longest pattern, in characters. */
  maxLength: 1_000,
  /** Most wildcards: every `*`, `**`, `?` and `[...]` class, all counted together. */
  maxWildcards: 64,
  /** Most `{a,b}` alternatives, all groups counted together. */
  maxAlternatives: 256,
});

/** A compiled glob, or why the pattern was refused. @internal */
export type CompiledGlob =
  | { readonly ok: true; readonly matcher: GlobMatcher }
  | { readonly ok: false; readonly problem: string };

type Item =
  | { readonly kind: 'char'; readonly codePoint: number }
  /** `*` within one segment. */
  | { readonly kind: 'star' }
  /** A whole-segment `**` ending the pattern: anything, across segments. */
  | { readonly kind: 'any_star' }
  /** A whole-segment `**` followed by `/`: any number of directories. */
  | { readonly kind: 'directories' }
  | { readonly kind: 'question' }
  | { readonly kind: 'class'; readonly ranges: readonly number[]; readonly negated: boolean }
  | { readonly kind: 'alternatives'; readonly options: readonly (readonly Item[])[] };

class GlobProblem extends Error {}

interface Budget {
  wildcards: number;
  alternatives: number;
}

/**
 * Compiles a glob over `/`-separated paths into a {@link GlobMatcher}: `*` and
 * `?` stay within one segment, a `**` segment spans any number of segments,
 * `[abc]`/`[a-z]`/`[!abc]` are character classes and `{a,b}` alternatives
 * (which may nest). Matching is anchored at both ends and case-sensitive.
 * Refuses an unclosed `[` or `{`, a backwards range and a pattern beyond
 * {@link globPatternLimits}, saying why. @internal
 */
export function compileGlob(pattern: string): CompiledGlob {
  const limits = globPatternLimits;
  if (pattern.length > limits.maxLength) {
    return refuse(
      `the glob pattern is ${pattern.length} characters long; the limit is ${limits.maxLength}. Use a shorter pattern, or pass a narrower directory as path.`,
    );
  }
  try {
    const items = parse(pattern, 0, { wildcards: 0, alternatives: 0 });
    const states: GlobState[] = [];
    const accept = addState(states, { kind: 'accept' }, []);
    const start = buildSequence(states, items, accept);
    return { ok: true, matcher: new GlobMatcher(states, start) };
  } catch (error) {
    if (error instanceof GlobProblem) return refuse(error.message);
    throw error;
  }
}

function refuse(problem: string): CompiledGlob {
  return { ok: false, problem };
}

/** Parses `text`, which starts at `offset` in the whole pattern (for the positions in messages). */
function parse(text: string, offset: number, budget: Budget): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < text.length; i++) {
    const parsed = parseItem(text, i, offset, budget);
    items.push(parsed.item);
    i = parsed.last;
  }
  return items;
}

/** One parsed item, and the index of its last character in the text. */
interface ParsedItem {
  readonly item: Item;
  readonly last: number;
}

/** Parses the item starting at index `i` of `text`. */
function parseItem(text: string, i: number, offset: number, budget: Budget): ParsedItem {
  switch (text.charAt(i)) {
    case '*':
      return parseStar(text, i, budget);
    case '?':
      countWildcard(budget);
      return { item: { kind: 'question' }, last: i };
    case '[':
      return parseClassItem(text, i, offset, budget);
    case '{':
      return parseAlternatives(text, i, offset, budget);
    default: {
      const codePoint = text.codePointAt(i) ?? 0;
      return { item: { kind: 'char', codePoint }, last: codePoint > 0xffff ? i + 1 : i };
    }
  }
}

/** A `*`, or a whole-segment `**` (before a `/` or ending the pattern). */
function parseStar(text: string, i: number, budget: Budget): ParsedItem {
  countWildcard(budget);
  if (text[i + 1] === '*') {
    const atStart = i === 0 || text[i - 1] === '/';
    if (atStart && text[i + 2] === '/') return { item: { kind: 'directories' }, last: i + 2 };
    if (atStart && i + 2 === text.length) return { item: { kind: 'any_star' }, last: i + 1 };
  }
  return { item: { kind: 'star' }, last: i };
}

/** A `[...]` character class, negated by a leading `!` or `^`. */
function parseClassItem(text: string, i: number, offset: number, budget: Budget): ParsedItem {
  const end = text.indexOf(']', i + 2);
  if (end === -1) {
    throw new GlobProblem(
      `the glob pattern has an unclosed '[' at character ${offset + i + 1}. Close the class, e.g. '[abc]', or write '[[]' for a literal '['.`,
    );
  }
  countWildcard(budget);
  let body = text.slice(i + 1, end);
  const negated = body.startsWith('!') || body.startsWith('^');
  if (negated) body = body.slice(1);
  return { item: { kind: 'class', ranges: parseClass(body), negated }, last: end };
}

/** A `{a,b}` group, each alternative parsed in turn (they may nest). */
function parseAlternatives(text: string, i: number, offset: number, budget: Budget): ParsedItem {
  const end = matchingBrace(text, i);
  if (end === undefined) {
    throw new GlobProblem(
      `the glob pattern has an unclosed '{' at character ${offset + i + 1}. Close the group, e.g. '{a,b}', or write '[{]' for a literal '{'.`,
    );
  }
  const parts = splitTopLevel(text.slice(i + 1, end));
  budget.alternatives += parts.length;
  if (budget.alternatives > globPatternLimits.maxAlternatives) {
    throw new GlobProblem(
      `the glob pattern has more than ${globPatternLimits.maxAlternatives} '{a,b}' alternatives. Use fewer alternatives, or run several narrower globs.`,
    );
  }
  let partOffset = offset + i + 1;
  const options = parts.map((part) => {
    const parsed = parse(part, partOffset, budget);
    partOffset += part.length + 1;
    return parsed;
  });
  return { item: { kind: 'alternatives', options }, last: end };
}

function countWildcard(budget: Budget): void {
  budget.wildcards++;
  if (budget.wildcards > globPatternLimits.maxWildcards) {
    throw new GlobProblem(
      `the glob pattern has more than ${globPatternLimits.maxWildcards} wildcards (*, **, ?, [...]). Use fewer wildcards, or run several narrower globs.`,
    );
  }
}

/** The inclusive code point ranges of a class body (negation already removed), as [low, high, ...]. */
function parseClass(body: string): number[] {
  const codePoints = Array.from(body, (char) => char.codePointAt(0) ?? 0);
  const ranges: number[] = [];
  for (let i = 0; i < codePoints.length; i++) {
    const low = codePoints[i] as number;
    const high = codePoints[i + 2];
    if (codePoints[i + 1] === 0x2d && high !== undefined) {
      if (low > high) {
        const shown = `${String.fromCodePoint(low)}-${String.fromCodePoint(high)}`;
        throw new GlobProblem(
          `the glob pattern has the range '${shown}' in a '[...]' class, which runs backwards. Write ranges from low to high, e.g. '[a-z]'.`,
        );
      }
      ranges.push(low, high);
      i += 2;
    } else {
      ranges.push(low, low);
    }
  }
  return ranges;
}

function matchingBrace(pattern: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    if (pattern[i] === '{') depth++;
    else if (pattern[i] === '}' && --depth === 0) return i;
  }
  return undefined;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function addState(states: GlobState[], step: GlobStep, next: number[]): number {
  states.push({ step, next });
  return states.length - 1;
}

/** Adds the states of `items` in front of state `next`; returns the first one. */
function buildSequence(states: GlobState[], items: readonly Item[], next: number): number {
  let start = next;
  for (let i = items.length - 1; i >= 0; i--) start = buildItem(states, items[i] as Item, start);
  return start;
}

function buildItem(states: GlobState[], item: Item, next: number): number {
  switch (item.kind) {
    case 'char':
      return addState(states, item, [next]);
    case 'question':
      return addState(states, { kind: 'segment_char' }, [next]);
    case 'class':
      return addState(states, item, [next]);
    case 'star':
    case 'any_star': {
      const loop: number[] = [];
      const fork = addState(states, { kind: 'fork' }, loop);
      const char = addState(states, { kind: item.kind === 'star' ? 'segment_char' : 'any_char' }, [
        fork,
      ]);
      loop.push(char, next);
      return fork;
    }
    case 'directories': {
      // (one or more segment characters, then '/') any number of times
      const enter: number[] = [];
      const fork = addState(states, { kind: 'fork' }, enter);
      const segmentNext: number[] = [];
      const segment = addState(states, { kind: 'segment_char' }, segmentNext);
      const slash = addState(states, { kind: 'char', codePoint: 0x2f }, [fork]);
      const more = addState(states, { kind: 'fork' }, [segment, slash]);
      segmentNext.push(more);
      enter.push(segment, next);
      return fork;
    }
    case 'alternatives': {
      const starts = item.options.map((option) => buildSequence(states, option, next));
      return starts.length === 1
        ? (starts[0] as number)
        : addState(states, { kind: 'fork' }, starts);
    }
  }
}
