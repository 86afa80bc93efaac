/** Where a JSON object or array was found in a text: `text.slice(start, end)` is valid JSON. */
export interface JsonSpan {
  readonly start: number;
  readonly end: number;
  /** The decoded value. */
  readonly value: unknown;
}

const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const colon = 0x3a;
const minus = 0x2d;
const dot = 0x2e;
const zero = 0x30;
const nine = 0x39;

/** Parser states of {@link scanContainer}. */
const expectValue = 0;
const afterOpenBracket = 1;
const afterOpenBrace = 2;
const expectKey = 3;
const afterValue = 4;

/**
 * Finds the first `{` or `[` in `text` from which a JSON object or array can
 * be decoded (ignoring what follows it), like Python's `raw_decode` tried at
 * every bracket. Decoding a value from a given bracket reads the same
 * characters whatever surrounds it, so an attempt that fails settles every
 * bracket it opened: those still open fail the same way, those it closed are
 * valid values. Only brackets it read inside strings are tried again, which
 * keeps the search close to linear instead of quadratic. @internal
 */
export function findJsonValue(text: string): JsonSpan | undefined {
  // Bracket position → end of the value it starts, -1 when none does, 0 when not yet known.
  let settled: Int32Array | undefined;
  const settle = (start: number, end: number): void => {
    settled ??= new Int32Array(text.length);
    settled[start] = end;
  };
  const candidates = /[[{]/g;
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    const start = match.index;
    const known = settled?.[start] ?? 0;
    const end = known === 0 ? scanContainer(text, start, settle) : known;
    if (end < 0) continue;
    try {
      return { start, end, value: JSON.parse(text.slice(start, end)) as unknown };
    } catch {
      // The scanner follows JSON.parse's grammar; this only guards against a disagreement.
      continue;
    }
  }
  return undefined;
}

/**
 * Reads the object or array starting at `start` (a `{` or `[`) and returns
 * the index just past it, or -1 when it is not valid JSON. Iterative, so deep
 * nesting cannot overflow the call stack. Reports every container it opens to
 * `settle` with its end, or -1 for those still open when reading fails.
 */
function scanContainer(
  text: string,
  start: number,
  settle: (start: number, end: number) => void,
): number {
  const scan: Scan = { text, open: [], settle, i: start, state: expectValue };
  for (;;) {
    if (scan.state !== afterValue || scan.open.length > 0) scan.i = skipWhitespace(text, scan.i);
    const end = step(scan, text.charCodeAt(scan.i));
    if (end !== undefined) return end;
  }
}

/** A {@link scanContainer} in progress: the containers still open, the position and the parser state. */
interface Scan {
  readonly text: string;
  /** Where each open container starts, outermost first. */
  readonly open: number[];
  readonly settle: (start: number, end: number) => void;
  i: number;
  state: number;
}

/** Reads what the state expects at `code`: the scan's result when it ends there, else `undefined`. */
function step(scan: Scan, code: number): number | undefined {
  switch (scan.state) {
    case expectValue:
      return readValue(scan, code);
    case afterOpenBracket:
      readFirstEntry(scan, code, closeBracket, expectValue);
      return undefined;
    case afterOpenBrace:
      readFirstEntry(scan, code, closeBrace, expectKey);
      return undefined;
    case expectKey:
      return readKey(scan, code);
    default:
      return readAfterValue(scan, code);
  }
}

/** A value: opens a container, or reads a scalar. */
function readValue(scan: Scan, code: number): number | undefined {
  if (code === openBrace || code === openBracket) {
    scan.open.push(scan.i);
    scan.i++;
    scan.state = code === openBrace ? afterOpenBrace : afterOpenBracket;
    return undefined;
  }
  scan.i = scanScalar(scan.text, scan.i);
  if (scan.i < 0) return fail(scan.open, scan.settle);
  scan.state = afterValue;
  return undefined;
}

/** Just inside a container: it closes at once (`closer`), or its first entry follows (`next`). */
function readFirstEntry(scan: Scan, code: number, closer: number, next: number): void {
  if (code === closer) {
    scan.i = close(scan.open, scan.i, scan.settle);
    scan.state = afterValue;
  } else {
    scan.state = next;
  }
}

/** An object key and its colon. */
function readKey(scan: Scan, code: number): number | undefined {
  const { text } = scan;
  if (code !== quote) return fail(scan.open, scan.settle);
  scan.i = skipWhitespace(text, scanString(text, scan.i));
  if (scan.i < 0 || text.charCodeAt(scan.i) !== colon) return fail(scan.open, scan.settle);
  scan.i++;
  scan.state = expectValue;
  return undefined;
}

/** After a value: the end of the scan, a comma, or the close of the innermost container. */
function readAfterValue(scan: Scan, code: number): number | undefined {
  const top = scan.open[scan.open.length - 1];
  if (top === undefined) return scan.i;
  const inObject = scan.text.charCodeAt(top) === openBrace;
  if (code === comma) {
    scan.i++;
    scan.state = inObject ? expectKey : expectValue;
  } else if (code === (inObject ? closeBrace : closeBracket)) {
    scan.i = close(scan.open, scan.i, scan.settle);
  } else {
    return fail(scan.open, scan.settle);
  }
  return undefined;
}

function close(open: number[], i: number, settle: (start: number, end: number) => void): number {
  const start = open.pop();
  if (start !== undefined) settle(start, i + 1);
  return i + 1;
}

function fail(open: readonly number[], settle: (start: number, end: number) => void): number {
  for (const start of open) settle(start, -1);
  return -1;
}

function skipWhitespace(text: string, i: number): number {
  if (i < 0) return i;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return i;
    i++;
  }
}

/** A string, number, `true`, `false` or `null` at `i`: the index past it, or -1. */
function scanScalar(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code === quote) return scanString(text, i);
  if (code === minus || (code >= zero && code <= nine)) return scanNumber(text, i);
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, i)) return i + literal.length;
  }
  return -1;
}

/** The string whose opening quote is at `i`: the index past its closing quote, or -1. */
function scanString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const code = text.charCodeAt(j);
    if (Number.isNaN(code) || code < 0x20) return -1;
    if (code === quote) return j + 1;
    if (code === backslash) {
      const escaped = text.charAt(j + 1);
      if (escaped === 'u') {
        if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(j + 2, j + 6))) return -1;
        j += 6;
      } else if (escaped !== '' && '"\\/bfnrt'.includes(escaped)) {
        j += 2;
      } else {
        return -1;
      }
    } else {
      j++;
    }
  }
}

/** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `i`: the index past it, or -1. */
function scanNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === minus) j++;
  const first = text.charCodeAt(j);
  if (first === zero) j++;
  else if (isDigit(first)) j = skipDigits(text, j);
  else return -1;
  if (text.charCodeAt(j) === dot) {
    if (!isDigit(text.charCodeAt(j + 1))) return -1;
    j = skipDigits(text, j + 1);
  }
  const exponent = text.charCodeAt(j);
  if (exponent === 0x65 || exponent === 0x45) {
    j++;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === minus) j++;
    if (!isDigit(text.charCodeAt(j))) return -1;
    j = skipDigits(text, j);
  }
  return j;
}

function skipDigits(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

function isDigit(code: number): boolean {
  return code >= zero && code <= nine;
}
