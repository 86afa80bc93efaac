/**
 * Tiny benchmark helpers shared by every `*.bench.ts` file. Each case runs a
 * warm-up, then timed batches; the reported figure is the median batch's time
 * per operation, which is stable enough for ratios taken in the same run.
 */

/** The result of measuring one case. */
export interface Measurement {
  readonly name: string;
  /** Median nanoseconds per operation. */
  readonly nsPerOp: number;
  /** Operations per second derived from the median. */
  readonly opsPerSecond: number;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Operations per timed batch. */
  readonly batch?: number;
  /** Number of timed batches. */
  readonly samples?: number;
}

/** Times `fn` (sync or async) and returns the median time per call. */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const batch = options.batch ?? 1_000;
  const samples = options.samples ?? 15;
  for (let i = 0; i < batch; i++) await fn();
  const perOp: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn();
    perOp.push(Number(process.hrtime.bigint() - start) / batch);
  }
  perOp.sort((a, b) => a - b);
  const nsPerOp = perOp[Math.floor(perOp.length / 2)] ?? Number.NaN;
  return { name, nsPerOp, opsPerSecond: 1e9 / nsPerOp };
}

/** Formats nanoseconds for people: `812 ns`, `4.2 µs`, `1.3 ms`. */
export function formatNs(ns: number): string {
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(1)} µs`;
  return `${(ns / 1_000_000).toFixed(2)} ms`;
}

/**
 * Prints a table of measurements with each row's ratio to `baseline`
 * (the row named so, or the first row).
 */
export function printTable(title: string, rows: readonly Measurement[], baseline?: string): void {
  const base = rows.find((row) => row.name === baseline) ?? rows[0];
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const ratio = base === undefined ? 1 : row.nsPerOp / base.nsPerOp;
    console.log(
      `  ${row.name.padEnd(width)}  ${formatNs(row.nsPerOp).padStart(10)}/op  ×${ratio.toFixed(2)}`,
    );
  }
}
