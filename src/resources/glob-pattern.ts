/**
 * Compiles a glob into an anchored regular expression over `/`-separated
 * paths: `*` and `?` stay within one segment, a `**` segment spans any number
 * of segments, `[abc]`/`[!abc]` are character classes and `{a,b}` alternatives.
 * Returns `undefined` for an unbalanced `[` or `{`. @internal
 */
export function compileGlob(pattern: string): RegExp | undefined {
  const source = translate(pattern);
  return source === undefined ? undefined : new RegExp(`^${source}$`, 'u');
}

function translate(pattern: string): string | undefined {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern.charAt(i);
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        const atEnd = i + 2 === pattern.length;
        if (atStart && pattern[i + 2] === '/') {
          out += '(?:[^/]+/)*';
          i += 2;
          continue;
        }
        if (atStart && atEnd) {
          out += '.*';
          i += 1;
          continue;
        }
      }
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) return undefined;
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (char === '{') {
      const end = matchingBrace(pattern, i);
      if (end === undefined) return undefined;
      const alternatives = splitTopLevel(pattern.slice(i + 1, end)).map(translate);
      if (alternatives.some((alt) => alt === undefined)) return undefined;
      out += `(?:${alternatives.join('|')})`;
      i = end;
    } else {
      out += char.replace(/[.+^$()|\\/{}[\]]/g, '\\$&');
    }
  }
  return out;
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
