/**
 * An application whose container comes from another copy of inversify than
 * the one affordance imports (what a nested install after an ignored peer
 * mismatch gives) is told so at `installAffordance`, naming the versions,
 * instead of failing its first evaluation with a private-member TypeError.
 *
 * The second copy is real: the inversify packages installed here, copied (not
 * linked) into a temporary `node_modules`, so Node loads them as other modules.
 */
import 'reflect-metadata';

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Container } from 'inversify';

import { AffordanceRuntime, ConfigurationError, installAffordance } from 'affordance';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let work: string;
let ForeignContainer: typeof Container;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'affordance-inversify-copy-'));
  const modules = join(work, 'node_modules');
  mkdirSync(modules);
  cpSync(join(repo, 'node_modules', 'inversify'), join(modules, 'inversify'), {
    recursive: true,
    dereference: true,
  });
  cpSync(join(repo, 'node_modules', '@inversifyjs'), join(modules, '@inversifyjs'), {
    recursive: true,
    dereference: true,
  });
  symlinkSync(join(repo, 'node_modules', 'reflect-metadata'), join(modules, 'reflect-metadata'));
  const url = pathToFileURL(join(modules, 'inversify', 'lib', 'index.js')).href;
  ForeignContainer = ((await import(url)) as { Container: typeof Container }).Container;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('installAffordance with a container of another inversify copy', () => {
  it('is a second copy: its Container is another class', () => {
    expect(ForeignContainer).not.toBe(Container);
    expect(new ForeignContainer()).not.toBeInstanceOf(Container);
  });

  it('refuses it with a ConfigurationError naming the version affordance imports and the fix', () => {
    let thrown: unknown;
    try {
      installAffordance(new ForeignContainer());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    const ours = (
      JSON.parse(readFileSync(join(repo, 'node_modules/inversify/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const message = (thrown as ConfigurationError).message;
    expect(message).toContain(
      'installAffordance: the container was made by another copy of inversify',
    );
    expect(message).toContain(`affordance imports inversify ${ours} at `);
    expect(message).toContain('Fix: install one copy of inversify');
    expect(message).toContain('npm ls inversify');
  });

  it('refuses what is not a container at all, and installs into its own inversify as before', () => {
    expect(() => installAffordance('container' as unknown as Container)).toThrow(
      "installAffordance: expected an inversify Container, got string. Fix: pass `new Container()` from 'inversify'.",
    );
    const container = new Container();
    const runtime = installAffordance(container);
    expect(container.get(AffordanceRuntime)).toBe(runtime);
  });
});
