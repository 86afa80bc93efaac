import type { JsonSchemaProblem } from '../index.js';

/** A tool of the server that the section leaves out, and why. */
export interface SkippedMcpTool {
  /** The tool's name on the server. */
  readonly name: string;
  /** What affordance could not validate, or why the name or description was refused. */
  readonly problems: readonly JsonSchemaProblem[];
}
