/** What a secret is replaced with. */
const redacted = '[redacted key]';
/** Secrets shorter than this are placeholders (local servers take any key); replacing them would garble text. */
const minSecretLength = 8;
/** `sk-` keys (OpenAI `sk-…`, `sk-proj-…`, Anthropic `sk-ant-…`), also partly masked ones such as `sk-abc***xyz`. */
const keyPattern = /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_*-]{8,}/g;
/** A bearer token, as an echoed `Authorization` header shows it. */
const bearerPattern = /\b(Bearer\s+)[A-Za-z0-9._~+/=*-]{8,}/gi;
/** Deeper values are replaced whole rather than walked. */
const maxDepth = 64;

/**
 * Removes API keys from what an adapter hands back: error messages,
 * provider payloads and the `cause` chain of the errors it throws (a 401
 * message may echo the key it was sent). Replaced: every configured secret in
 * full (read when redacting, so a rotated key is covered), any `sk-`-shaped
 * token and any bearer token.
 */
export class SecretRedactor {
  readonly #secrets: () => readonly unknown[];

  /** @param secrets returns the configured secrets; non-strings and short values are ignored. */
  constructor(secrets: () => readonly unknown[]) {
    this.#secrets = secrets;
  }

  /** `text` with every secret replaced. */
  text(text: string): string {
    let result = text;
    for (const secret of this.#currentSecrets()) result = result.split(secret).join(redacted);
    return result.replace(keyPattern, redacted).replace(bearerPattern, `$1${redacted}`);
  }

  /**
   * Redacts a thrown value in place and returns it: its message, stack, cause and
   * other own properties (plain objects and arrays in them are replaced by
   * redacted copies, response headers by a redacted copy). Scrubbing in place
   * keeps the error's class, so `instanceof` checks on a `cause` still hold.
   * A property that cannot be redefined (a frozen error) is left as it was;
   * a thrown string or plain object comes back as a redacted copy.
   */
  error(error: unknown): unknown {
    try {
      return this.#walk(error, 0, new Map());
    } catch {
      // A hostile value (a Proxy whose traps throw): nothing more can be done with it.
      return error;
    }
  }

  #currentSecrets(): string[] {
    let values: readonly unknown[];
    try {
      values = this.#secrets();
    } catch {
      return [];
    }
    return values
      .filter((value): value is string => typeof value === 'string')
      .filter((value) => value.length >= minSecretLength)
      .sort((a, b) => b.length - a.length);
  }

  /** The redacted form of `value`: strings replaced, plain data copied, other objects scrubbed in place. */
  #walk(value: unknown, depth: number, seen: Map<object, unknown>): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    if (depth > maxDepth) return '[omitted: nested too deep to check for secrets]';
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value as unknown[]) copy.push(this.#walk(item, depth + 1, seen));
      return copy;
    }
    if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      seen.set(value, copy);
      for (const key of Object.keys(value)) {
        let item: unknown;
        try {
          item = value[key];
        } catch {
          item = '[omitted: unreadable]';
        }
        copy[key] = this.#walk(item, depth + 1, seen);
      }
      return copy;
    }
    if (isHeaders(value)) {
      const copy = this.#headers(value);
      seen.set(value, copy);
      return copy;
    }
    seen.set(value, value);
    this.#scrubInPlace(value, depth, seen);
    return value;
  }

  /** Replaces each own data property (and `stack`) of `target` by its redacted form. */
  #scrubInPlace(target: object, depth: number, seen: Map<object, unknown>): void {
    let names: string[];
    try {
      names = Object.getOwnPropertyNames(target);
    } catch {
      return;
    }
    for (const name of names) {
      try {
        const descriptor = Object.getOwnPropertyDescriptor(target, name);
        if (descriptor === undefined) continue;
        const isData = 'value' in descriptor;
        if (!isData && name !== 'stack') continue;
        const current: unknown = isData ? descriptor.value : (target as { stack?: unknown }).stack;
        const next = this.#walk(current, depth + 1, seen);
        if (next === current) continue;
        Object.defineProperty(target, name, {
          value: next,
          writable: descriptor.writable ?? true,
          enumerable: descriptor.enumerable ?? false,
          configurable: descriptor.configurable ?? true,
        });
      } catch {
        // A frozen or exotic object: leave this property as it is.
      }
    }
  }

  /** The same headers with redacted values, as a new object of the same class when it can be built. */
  #headers(headers: HeadersLike): unknown {
    const original: [string, string][] = [];
    headers.forEach((value, name) => {
      original.push([name, value]);
    });
    const entries = original.map(([name, value]): [string, string] => [name, this.text(value)]);
    if (entries.every(([, clean], index) => clean === original[index]?.[1])) return headers;
    try {
      return new (headers.constructor as new (init: [string, string][]) => unknown)(entries);
    } catch {
      return Object.fromEntries(entries);
    }
  }
}

interface HeadersLike {
  forEach(callback: (value: string, name: string) => void): void;
}

/** An object literal or JSON value, from any realm. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function isHeaders(value: object): value is HeadersLike {
  return (
    Object.prototype.toString.call(value) === '[object Headers]' &&
    typeof (value as Partial<HeadersLike>).forEach === 'function'
  );
}
