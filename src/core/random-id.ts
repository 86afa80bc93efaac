import { randomFillSync } from 'node:crypto';

/** Random bytes for 256 ids, refilled from the system's secure generator when used up. */
const pool = Buffer.allocUnsafe(16 * 256);
let used = pool.length;
/** The character codes of one id, reused: the string is made in one step from them. */
const codes: number[] = new Array<number>(36).fill(0);
const hex: readonly number[] = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 45;

/**
 * A random UUID (version 4, RFC 9562), e.g. `1a9c9ef4-60bc-4930-a7fa-6f4d4ac30215`,
 * from the same secure random source as `crypto.randomUUID()`, made as one flat
 * string. Node 20 assembles `randomUUID()` from a dozen pieces, and V8 keeps
 * that result as a tree of them for as long as the string lives: about 490
 * bytes, against 65 for this one, and about twice the time. Session,
 * evaluation and event ids live as long as what they name. @internal
 */
export function randomId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += 16;
  let code = 0;
  for (let index = 0; index < 16; index += 1) {
    if (index === 4 || index === 6 || index === 8 || index === 10) codes[code++] = DASH;
    let byte = pool[at + index] as number;
    // The version (4) and variant (10xx) bits of a random UUID.
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    codes[code++] = hex[byte >> 4] as number;
    codes[code++] = hex[byte & 0x0f] as number;
  }
  return String.fromCharCode(...codes);
}
