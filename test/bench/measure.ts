import { GCProfiler, getHeapStatistics } from 'node:v8';

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

/** `12.3 µs; goal ≤ 50 µs: met`: a cost in nanoseconds judged against a goal in microseconds. */
export function microsGoal(ns: number, goalMicros: number): string {
  return `${formatNs(ns)}; goal ≤ ${goalMicros} µs: ${ns <= goalMicros * 1_000 ? 'met' : 'not met'}`;
}

/** Formats nanoseconds for people: `812 ns`, `4.2 µs`, `1.3 ms`. */
export function formatNs(ns: number): string {
  if (ns < 0) return `−${formatNs(-ns)}`;
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

/** One contender of {@link compare}. */
export interface Contender {
  readonly name: string;
  /** One operation (sync or async). */
  readonly run: () => unknown;
  /**
   * Call `run` without awaiting it, as a synchronous API is called (an `await`
   * of a plain value still costs a microtask). Only for a `run` that returns no promise.
   */
  readonly sync?: boolean | undefined;
  /** The most this contender may cost, as a ratio to the baseline; printed with met / not met. */
  readonly goal?: number | undefined;
  /** What the goal compares against when it is not the table's baseline (a contender's name). */
  readonly goalAgainst?: string | undefined;
}

/** Options of {@link compare}. */
export interface CompareOptions {
  /** The contender every ratio is taken against. */
  readonly baseline: string;
  /** Operations per contender per round. */
  readonly batch?: number;
  /** Rounds; in each, every contender runs one batch, starting from a different one each round. */
  readonly rounds?: number;
  /**
   * Operations per contender before the rounds, so every contender is measured
   * compiled (one batch by default). A contender that runs more code needs
   * more runs before V8 has optimised it.
   */
  readonly warmup?: number;
  /**
   * Before each operation, walk enough unrelated objects to push the
   * operation's code and data out of the CPU caches, as an HTTP client's work
   * between a loop's turns does; only the operation itself is timed.
   */
  readonly coldCaches?: boolean;
}

/** Objects walked by {@link evictCaches}: about 2 MB of small objects, more than these machines' L2. */
const evictionSet = Array.from({ length: 20_000 }, (_, id) => ({
  id,
  label: `item ${id}`,
  nested: { id },
}));

/** Reads every object of {@link evictionSet} four times (allocating nothing); the sum keeps the reads from being optimised away. */
function evictCaches(): number {
  let sum = 0;
  for (let pass = 0; pass < 4; pass++) {
    for (const item of evictionSet) sum += item.id + item.nested.id;
  }
  return sum;
}

/** Runs `run` `batch` times, each after {@link evictCaches}, and returns the nanoseconds spent in `run` alone. */
async function timeCold(run: () => unknown, batch: number, sync: boolean): Promise<number> {
  let spent = 0n;
  let checksum = 0;
  for (let i = 0; i < batch; i++) {
    checksum += evictCaches();
    const start = process.hrtime.bigint();
    if (sync) run();
    else await run();
    spent += process.hrtime.bigint() - start;
  }
  if (checksum < 0) throw new Error('unreachable: the eviction sum is never negative');
  return Number(spent);
}

/** What {@link compare} measured for one contender. */
export interface Comparison {
  readonly name: string;
  /** Median nanoseconds per operation over the rounds. */
  readonly medianNs: number;
  /** Fastest round's nanoseconds per operation. */
  readonly minNs: number;
  /** Median over the rounds of this round's time divided by the baseline's in the same round. */
  readonly medianRatio: number;
  /** This contender's fastest round divided by the baseline's fastest round. */
  readonly minRatio: number;
  readonly goal: number | undefined;
  readonly goalAgainst: string | undefined;
}

/**
 * Runs the contenders interleaved in rounds (A B C, then B C A, ...) in one
 * process, so a slow moment of the machine or the garbage collector falls on
 * every contender alike, and prints, per contender, the median time per
 * operation, the median of the per-round ratios to the baseline, the ratio of
 * the fastest rounds, and the goal with "met" or "not met" (judged on the
 * median per-round ratio). Returns the figures.
 */
export async function compare(
  title: string,
  contenders: readonly Contender[],
  options: CompareOptions,
): Promise<Comparison[]> {
  const batch = options.batch ?? 1_000;
  const rounds = options.rounds ?? 15;
  const times = contenders.map(() => [] as number[]);
  const warmup = options.warmup ?? batch;
  // On a loaded machine, CPU time (what this process itself ran) is steadier than wall time.
  const cpuTime = process.env['AFFORDANCE_BENCH_CPU'] === '1';
  if (cpuTime)
    console.log("\n(AFFORDANCE_BENCH_CPU=1: times are this process's CPU time, user + system)");
  for (const contender of contenders) for (let i = 0; i < warmup; i++) await contender.run();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const index = (round + k) % contenders.length;
      const contender = contenders[index] as Contender;
      // A turn of the event loop first: what the previous batch left switched on for the rest of
      // its turn (affordance's call-frame tracking, and with it Node 20's promise hooks) ends there
      // and does not slow the next contender.
      await nextTurn();
      if (options.coldCaches === true) {
        const spent = await timeCold(contender.run, batch, contender.sync === true);
        (times[index] as number[]).push(spent / batch);
        continue;
      }
      const start = process.hrtime.bigint();
      const cpuStart = cpuTime ? process.cpuUsage() : undefined;
      if (contender.sync === true) for (let i = 0; i < batch; i++) contender.run();
      else for (let i = 0; i < batch; i++) await contender.run();
      const spent =
        cpuStart === undefined
          ? Number(process.hrtime.bigint() - start)
          : cpuMicros(process.cpuUsage(cpuStart)) * 1_000;
      (times[index] as number[]).push(spent / batch);
    }
  }
  const at = (name: string): number[] => {
    const index = contenders.findIndex((contender) => contender.name === name);
    if (index < 0) throw new Error(`compare: no contender named '${name}'`);
    return times[index] as number[];
  };
  const base = at(options.baseline);
  const results = contenders.map((contender, index): Comparison => {
    const own = times[index] as number[];
    return {
      name: contender.name,
      medianNs: median(own),
      minNs: Math.min(...own),
      medianRatio: median(own.map((ns, round) => ns / (base[round] as number))),
      minRatio: Math.min(...own) / Math.min(...base),
      goal: contender.goal,
      goalAgainst: contender.goalAgainst,
    };
  });
  printComparison(title, results, options.baseline, (name) => at(name));
  return results;
}

function printComparison(
  title: string,
  results: readonly Comparison[],
  baseline: string,
  timesOf: (name: string) => number[],
): void {
  console.log(`\n${title} (interleaved rounds; ratios to ${baseline})`);
  const width = Math.max(...results.map((row) => row.name.length));
  console.log(
    `  ${''.padEnd(width)}  ${'median'.padStart(10)}  ${'fastest'.padStart(10)}  ${'ratio'.padStart(7)}  ${'fastest'.padStart(7)}  goal`,
  );
  for (const row of results) {
    console.log(
      `  ${row.name.padEnd(width)}  ${formatNs(row.medianNs).padStart(10)}  ${formatNs(row.minNs).padStart(10)}  ` +
        `×${row.medianRatio.toFixed(2).padStart(6)}  ×${row.minRatio.toFixed(2).padStart(6)}  ${goalText(row, timesOf)}`,
    );
  }
}

/** `≤ ×0.80 of X: not met (×5.21)`, judged on the median per-round ratio to what the goal names. */
function goalText(row: Comparison, timesOf: (name: string) => number[]): string {
  if (row.goal === undefined) return '';
  let ratio = row.medianRatio;
  let against = '';
  if (row.goalAgainst !== undefined) {
    const own = timesOf(row.name);
    const other = timesOf(row.goalAgainst);
    ratio = median(own.map((ns, round) => ns / (other[round] as number)));
    against = ` of ${row.goalAgainst}`;
  }
  const verdict = ratio <= row.goal ? 'met' : 'not met';
  return `≤ ×${row.goal.toFixed(2)}${against}: ${verdict}${against === '' ? '' : ` (×${ratio.toFixed(2)})`}`;
}

function cpuMicros(usage: NodeJS.CpuUsage): number {
  return usage.user + usage.system;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Bytes allocated per operation, estimated from V8's GC profiler: what every
 * collection during `ops` operations freed, plus how much the heap grew.
 */
export async function allocatedPerOp(run: () => unknown, ops: number): Promise<number> {
  for (let i = 0; i < Math.min(ops, 1_000); i++) await run();
  const profiler = new GCProfiler();
  const before = getHeapStatistics().used_heap_size;
  profiler.start();
  for (let i = 0; i < ops; i++) await run();
  const after = getHeapStatistics().used_heap_size;
  const report = profiler.stop();
  let freed = 0;
  for (const gc of report.statistics) {
    freed += Math.max(
      0,
      gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
    );
  }
  return (freed + after - before) / ops;
}

/** Resolves after the event loop's next check phase (timers and immediates queued before it have run). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
