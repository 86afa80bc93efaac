/**
 * Cost of a transaction's bookkeeping as state grows: `session.snapshot()` +
 * `session.restore()` with 10 to 10^6 logged events (plus as many STATE
 * values), and `InMemoryFilesystem` snapshot + restore with 10 and 10^4
 * files. Each is set beside a naive deep copy of the same data, so the ratio
 * largest/smallest has something to be compared with. Library code is imported
 * by relative path until the public barrel exports it.
 */
import { InMemoryFilesystem } from '../../src/resources/in-memory-filesystem.js';
import { Session } from '../../src/session/session.js';
import { SlicePolicy } from '../../src/session/slice-policy.js';
import { formatNs, measure, type Measurement, printTable } from './measure.js';

/** A small logged event, so a million of them fit comfortably in memory. */
class Logged {
  constructor(
    readonly seq: number,
    readonly note: string,
  ) {}
}

/** A STATE value, so the snapshot has state to capture as well as the log. */
class Item {
  constructor(
    readonly id: number,
    readonly title: string,
  ) {}
}

const eventCounts = [10, 1_000, 100_000, 1_000_000];
const fileCounts = [10, 10_000];

function fillSession(count: number): { session: Session; appendNsPerOp: number } {
  const session = new Session();
  session.slice(Logged).setPolicy(SlicePolicy.Log);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    session.dispatch(new Logged(i, `event ${i}`));
    session.dispatch(new Item(i, `item ${i}`));
  }
  const appendNsPerOp = Number(process.hrtime.bigint() - start) / (2 * count);
  return { session, appendNsPerOp };
}

/** What a transaction would have to do without structural sharing: copy every slice's values. */
function deepCopySlices(session: Session): unknown {
  return session.sliceTypes.map((type) => structuredClone(session.slice(type).all()));
}

async function fillFilesystem(count: number): Promise<InMemoryFilesystem> {
  const fs = new InMemoryFilesystem({ limits: { maxFiles: count + 10 } });
  for (let i = 0; i < count; i++) {
    await fs.write(`src/pkg${i % 50}/file${i}.ts`, `export const value${i} = ${i};\n`);
  }
  return fs;
}

/** The naive alternative for a filesystem: copy every path and content. */
async function deepCopyFiles(fs: InMemoryFilesystem): Promise<Map<string, string>> {
  const copy = new Map<string, string>();
  for (const path of await fs.glob('**')) copy.set(path, await fs.readText(path));
  return structuredClone(copy);
}

function flatness(rows: readonly Measurement[]): string {
  const times = rows.map((row) => row.nsPerOp);
  return (Math.max(...times) / Math.min(...times)).toFixed(2);
}

export default async function sessionSnapshotBench(): Promise<void> {
  const sessions = eventCounts.map((count) => ({ count, ...fillSession(count) }));
  const snapshotRestore = (session: Session) => () => {
    session.restore(session.snapshot());
  };
  // One discarded round, so the first size measured does not pay for JIT warm-up.
  for (const { session } of sessions) await measure('warm-up', snapshotRestore(session));

  const snapshotRows: Measurement[] = [];
  const copyRows: Measurement[] = [];
  for (const { count, session } of sessions) {
    const label = `${count.toLocaleString('en-US')} events`;
    snapshotRows.push(
      await measure(`snapshot+restore, ${label}`, snapshotRestore(session), {
        batch: 10_000,
        samples: 15,
      }),
    );
    const big = count >= 100_000;
    copyRows.push(
      await measure(`naive deep copy, ${label}`, () => deepCopySlices(session), {
        batch: big ? 1 : count >= 1_000 ? 20 : 2_000,
        samples: big ? 3 : 9,
      }),
    );
  }
  printTable('Session snapshot + restore (LOG events and as many STATE values)', snapshotRows);
  console.log(`  ratio largest/smallest: ×${flatness(snapshotRows)}`);
  printTable('Naive baseline: structuredClone of every slice', copyRows);
  console.log(`  ratio largest/smallest: ×${flatness(copyRows)}`);
  const largest = sessions[sessions.length - 1];
  if (largest !== undefined) {
    console.log(
      `  filling ${largest.count.toLocaleString('en-US')} events + values through session.dispatch: ` +
        `${formatNs(largest.appendNsPerOp)}/dispatch (freeze, reducers, dispatcher)`,
    );
  }

  const fsRows: Measurement[] = [];
  const fsWriteRows: Measurement[] = [];
  const fsCopyRows: Measurement[] = [];
  for (const count of fileCounts) {
    const fs = await fillFilesystem(count);
    const label = `${count.toLocaleString('en-US')} files`;
    fsRows.push(
      await measure(
        `snapshot+restore, ${label}`,
        () => {
          fs.restore(fs.snapshot());
        },
        { batch: 10_000 },
      ),
    );
    let n = 0;
    fsWriteRows.push(
      await measure(
        `snapshot+write+restore, ${label}`,
        async () => {
          const snapshot = fs.snapshot();
          await fs.write(`src/pkg${n % 50}/new.ts`, `// ${n++}\n`, { mode: 'overwrite' });
          fs.restore(snapshot);
        },
        { batch: 1_000 },
      ),
    );
    fsCopyRows.push(
      await measure(`naive deep copy, ${label}`, () => deepCopyFiles(fs), {
        batch: count > 1_000 ? 2 : 500,
        samples: 9,
      }),
    );
  }
  printTable('InMemoryFilesystem snapshot + restore', fsRows);
  console.log(`  ratio largest/smallest: ×${flatness(fsRows)}`);
  printTable(
    'InMemoryFilesystem snapshot + one write (copies 2 directories) + restore',
    fsWriteRows,
  );
  console.log(`  ratio largest/smallest: ×${flatness(fsWriteRows)}`);
  printTable('Naive baseline: copy every file', fsCopyRows);
  console.log(`  ratio largest/smallest: ×${flatness(fsCopyRows)}`);
}
