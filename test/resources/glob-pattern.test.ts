import fc from 'fast-check';

import { compileGlob, globPatternLimits } from '../../src/resources/glob-pattern.js';

/**
 * The regular-expression translation globs used before the linear matcher,
 * kept as the reference for their meaning. Fine on the short inputs below;
 * it backtracks catastrophically on long ones.
 */
function referenceGlob(pattern: string): RegExp | undefined {
  const translate = (text: string): string | undefined => {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const char = text.charAt(i);
      if (char === '*') {
        if (text[i + 1] === '*') {
          const atStart = i === 0 || text[i - 1] === '/';
          if (atStart && text[i + 2] === '/') {
            out += '(?:[^/]+/)*';
            i += 2;
            continue;
          }
          if (atStart && i + 2 === text.length) {
            out += '.*';
            i += 1;
            continue;
          }
        }
        out += '[^/]*';
      } else if (char === '?') {
        out += '[^/]';
      } else if (char === '[') {
        const end = text.indexOf(']', i + 2);
        if (end === -1) return undefined;
        let body = text.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        // A leading '-' is a literal '-' (the old translation put it after '/', making the range '/-…' by mistake).
        const escaped = body.replace(/[\\\]^]/g, '\\$&').replace(/^-/, '\\-');
        out += `[${negated ? '^/' : ''}${escaped}]`;
        i = end;
      } else if (char === '{') {
        let depth = 0;
        let end: number | undefined;
        for (let j = i; j < text.length && end === undefined; j++) {
          if (text[j] === '{') depth++;
          else if (text[j] === '}' && --depth === 0) end = j;
        }
        if (end === undefined) return undefined;
        const parts: string[] = [];
        let level = 0;
        let start = i + 1;
        for (let j = i + 1; j < end; j++) {
          if (text[j] === '{') level++;
          else if (text[j] === '}') level--;
          else if (text[j] === ',' && level === 0) {
            parts.push(text.slice(start, j));
            start = j + 1;
          }
        }
        parts.push(text.slice(start, end));
        const alternatives = parts.map(translate);
        if (alternatives.some((alternative) => alternative === undefined)) return undefined;
        out += `(?:${alternatives.join('|')})`;
        i = end;
      } else {
        out += char.replace(/[.+^$()|\\/{}[\]]/g, '\\$&');
      }
    }
    return out;
  };
  const source = translate(pattern);
  return source === undefined ? undefined : new RegExp(`^${source}$`, 'u');
}

function matcherOf(pattern: string) {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`expected '${pattern}' to compile: ${compiled.problem}`);
  return compiled.matcher;
}

describe(compileGlob, () => {
  it('should match exactly the paths the regular-expression translation matched', () => {
    const patternChars = ['a', 'b', '.', '/', '*', '*', '?', '[', ']', '!', '-', '{', '}', ','];
    const pathChars = ['a', 'b', '.', '/', '-', '!', 'é', '😀'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...patternChars), { maxLength: 12 }).map((c) => c.join('')),
        fc.array(fc.array(fc.constantFrom(...pathChars), { maxLength: 10 }), { maxLength: 5 }),
        (pattern, paths) => {
          let reference: RegExp | undefined;
          try {
            reference = referenceGlob(pattern);
          } catch {
            reference = undefined; // a backwards range was a SyntaxError
          }
          const compiled = compileGlob(pattern);
          expect(compiled.ok).toBe(reference !== undefined);
          if (!compiled.ok || reference === undefined) return;
          for (const chars of paths) {
            const path = chars.join('');
            expect([pattern, path, compiled.matcher.test(path)]).toEqual([
              pattern,
              path,
              reference.test(path),
            ]);
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('should keep the documented meanings of *, **, ?, classes and alternatives', () => {
    expect(matcherOf('*.md').test('README.md')).toBe(true);
    expect(matcherOf('*.md').test('docs/README.md')).toBe(false);
    expect(matcherOf('**/*.ts').test('index.ts')).toBe(true);
    expect(matcherOf('**/*.ts').test('src/lib/index.ts')).toBe(true);
    expect(matcherOf('src/**').test('src/a/b/c.txt')).toBe(true);
    expect(matcherOf('**').test('a/b')).toBe(true);
    expect(matcherOf('a/**/b').test('a/b')).toBe(true);
    expect(matcherOf('a/**/b').test('a/x/y/b')).toBe(true);
    expect(matcherOf('a/**/b').test('a//b')).toBe(false);
    expect(matcherOf('docs/guid?.md').test('docs/guide.md')).toBe(true);
    expect(matcherOf('?').test('/')).toBe(false);
    expect(matcherOf('?').test('😀')).toBe(true);
    expect(matcherOf('[a-c]x').test('bx')).toBe(true);
    expect(matcherOf('[!a-c]x').test('bx')).toBe(false);
    expect(matcherOf('[!a-c]x').test('dx')).toBe(true);
    expect(matcherOf('a[!b]c').test('a/c')).toBe(false);
    expect(matcherOf('[]]').test(']')).toBe(true);
    expect(matcherOf('**/*.{md,js}').test('docs/a.js')).toBe(true);
    expect(matcherOf('{src,test}/{*.ts,**/*.json}').test('test/x/y.json')).toBe(true);
    expect(matcherOf('{a,{b,c}d}').test('cd')).toBe(true);
    expect(matcherOf('x{}y').test('xy')).toBe(true);
  });

  it('should say what is wrong with a pattern it refuses', () => {
    const problemOf = (pattern: string): string => {
      const compiled = compileGlob(pattern);
      return compiled.ok ? 'compiled' : compiled.problem;
    };
    expect(problemOf('src/{a,b')).toBe(
      "the glob pattern has an unclosed '{' at character 5. Close the group, e.g. '{a,b}', or write '[{]' for a literal '{'.",
    );
    expect(problemOf('x[ab')).toBe(
      "the glob pattern has an unclosed '[' at character 2. Close the class, e.g. '[abc]', or write '[[]' for a literal '['.",
    );
    expect(problemOf('[z-a]')).toBe(
      "the glob pattern has the range 'z-a' in a '[...]' class, which runs backwards. Write ranges from low to high, e.g. '[a-z]'.",
    );
    expect(problemOf('?'.repeat(globPatternLimits.maxWildcards + 1))).toMatch(
      /^the glob pattern has more than 64 wildcards/,
    );
    expect(problemOf(`{${'a,'.repeat(globPatternLimits.maxAlternatives)}a}`)).toMatch(
      /^the glob pattern has more than 256 '\{a,b\}' alternatives/,
    );
    expect(problemOf('a'.repeat(globPatternLimits.maxLength + 1))).toBe(
      'the glob pattern is 1001 characters long; the limit is 1000. Use a shorter pattern, or pass a narrower directory as path.',
    );
  });
});
