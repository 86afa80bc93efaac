import type { SchemaGap } from './params-json-schema.js';

/** Collects, in order, what a schema being built leaves out and what blocks strict mode. @internal */
export class SchemaGaps {
  /** Constraints the parser enforces that the schema does not show. */
  readonly unexpressed: SchemaGap[] = [];
  /** Reasons the class cannot be sent with OpenAI `strict: true`. */
  readonly blockers: SchemaGap[] = [];

  /** Records a constraint the schema does not express, and why. */
  gap(path: string, constraint: string, reason: string): void {
    this.unexpressed.push({ path, constraint, reason });
  }

  /** Records a validator JSON Schema has no keyword for. */
  customGap(path: string, constraint: string): void {
    this.gap(
      path,
      constraint,
      'enforced at runtime only: JSON Schema has no keyword for this validator',
    );
  }

  /** Records a constraint left out because OpenAI strict mode does not support `keyword`. */
  strictGap(path: string, constraint: string, keyword: string): void {
    this.gap(
      path,
      constraint,
      `enforced at runtime only: OpenAI strict mode does not support ${keyword}`,
    );
  }

  /** Records why the class cannot be sent with `strict: true`. */
  blocker(path: string, constraint: string, reason: string): void {
    this.blockers.push({ path, constraint, reason });
  }
}
