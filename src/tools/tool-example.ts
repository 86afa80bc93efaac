/** Fields of a {@link ToolExample}. */
export interface ToolExampleInit<P, R> {
  /** What the example shows, 1-200 ASCII characters. */
  readonly description: string;
  /** An instance of the tool's params class (omit for a tool without params). */
  readonly input?: P | undefined;
  /** An instance of the tool's result class, or an array of them for list results (omit for no result). */
  readonly output?: R | undefined;
}

/**
 * A worked example of a tool call. Examples are validated when the tool is
 * built and rendered into the section text, so the model sees real calls.
 */
export class ToolExample<P = unknown, R = unknown> {
  /** What the example shows. */
  readonly description: string;
  /** The example's arguments. */
  readonly input: P | undefined;
  /** The example's result value. */
  readonly output: R | undefined;

  constructor(init: ToolExampleInit<P, R>) {
    this.description = init.description;
    this.input = init.input;
    this.output = init.output;
  }
}
