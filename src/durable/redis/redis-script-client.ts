/**
 * The part of a Redis client affordance uses: running a Lua script. An
 * ioredis `Redis` or `Cluster` fits; so does any client with the same `eval`
 * (replies as arrays, strings and numbers, nil as `null`), and `evalsha` if it
 * has one.
 */
export interface RedisScriptClient {
  /** `EVAL script numKeys key... arg...`. */
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /**
   * `EVALSHA sha1 numKeys key... arg...` (optional). With it, each call sends
   * the script's SHA-1 instead of its text, and the text only when the server
   * answers `NOSCRIPT`; rejecting with that error is how a client says so.
   */
  evalsha?(sha1: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}
