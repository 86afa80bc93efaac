#!/usr/bin/env node
// The `affordance-migrate` command (package.json `bin`); its logic is runMigrateCli.
import { runMigrateCli } from './run-migrate-cli.js';

process.exitCode = await runMigrateCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
