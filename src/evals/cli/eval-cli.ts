#!/usr/bin/env node
// The `affordance-eval` command (package.json `bin`); its logic is runEvalCli.
import { runEvalCli } from './run-eval-cli.js';

process.exitCode = await runEvalCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  progress: process.stderr,
});
