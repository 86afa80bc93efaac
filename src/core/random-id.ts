import { randomUUID } from 'node:crypto';

/**
 * A random UUID (version 4) held as one flat string. Node 20 assembles
 * `randomUUID()` from a dozen pieces, and V8 keeps the result as a tree of
 * those pieces for as long as the string lives: about 490 bytes, against 66
 * for the same text flat. Session, evaluation and event ids live as long as
 * what they name, so they are made with this. (`toLowerCase` returns the same
 * text, which is already lower case, as a new flat string.) @internal
 */
export function randomId(): string {
  return randomUUID().toLowerCase();
}
