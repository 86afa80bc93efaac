/** What `onProgress` receives after each trial. */
export interface EvalProgress {
  /** The suite's name. */
  readonly suite: string;
  /** The case and trial that just finished. */
  readonly caseId: string;
  readonly trial: number;
  /** Whether that trial passed. */
  readonly passed: boolean;
  /** Trials finished so far, and in all. */
  readonly done: number;
  readonly total: number;
  /** Trials failed so far. */
  readonly failed: number;
}

/** A stream the progress is written to: a terminal gets a bar redrawn in place, anything else one line per trial. */
export interface EvalProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

const BAR_WIDTH = 24;

/** Writes progress to `stream`: a bar on a terminal, plain lines otherwise. */
export function progressWriter(stream: EvalProgressStream): {
  update(progress: EvalProgress): void;
  end(): void;
} {
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    update(progress) {
      if (!tty) {
        const mark = progress.passed ? 'pass' : 'FAIL';
        stream.write(
          `${progress.suite} [${progress.done}/${progress.total}] ${mark} ${progress.caseId} (trial ${progress.trial})\n`,
        );
        return;
      }
      const filled = Math.round((progress.done / progress.total) * BAR_WIDTH);
      const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
      const line = `${progress.suite} [${bar}] ${progress.done}/${progress.total} trials, ${progress.failed} failed  ${progress.caseId}`;
      const width = stream.columns ?? 100;
      stream.write(`\r${line.slice(0, width - 1).padEnd(width - 1)}`);
      drawn = true;
    },
    end() {
      if (tty && drawn) stream.write('\n');
    },
  };
}
