/** A plan was created (or replaced) with an objective and its first step titles. */
export class PlanSetUp {
  /** What the plan should achieve (trimmed). */
  readonly objective: string;
  /** The first steps' titles, in order (trimmed); may be empty. */
  readonly stepTitles: readonly string[];

  constructor(objective: string, stepTitles: readonly string[] = []) {
    this.objective = objective;
    this.stepTitles = [...stepTitles];
  }
}
