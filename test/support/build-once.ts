// Jest's globalSetup: compiles the package (dist/) and the examples (.build/) once,
// before any suite starts, as `npm run build:examples` does. Suites that spawn the
// built commands or examples (affordance-eval, affordance-inspect, the queued Nest
// example) call `tsc -b` again for a file run on its own; after this it finds
// everything up to date and writes nothing, so two suites running at once never
// read a file the other is rewriting.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildOnce(): void {
  const root = process.cwd();
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-b',
      'tsconfig.build.json',
      'tsconfig.run.json',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
