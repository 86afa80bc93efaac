/** Steps were appended to the active plan. */
export class StepsAdded {
  /** The new steps' titles, in order (trimmed). */
  readonly titles: readonly string[];

  constructor(titles: readonly string[]) {
    this.titles = [...titles];
  }
}
