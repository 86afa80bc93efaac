/** The conversation and a `ScriptedAdapter`'s script disagree; the message says where and how to fix the script. */
export class ScriptMismatchError extends Error {
  constructor(message: string) {
    super(`ScriptedAdapter: ${message}`);
    this.name = 'ScriptMismatchError';
  }
}
