#!/usr/bin/env node
// The `affordance-inspect` command (package.json `bin`); its logic is runInspectCli.
import { runInspectCli } from './run-inspect-cli.js';

const started = await runInspectCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
if (typeof started === 'number') process.exitCode = started;
else {
  const stop = () => {
    void started.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
