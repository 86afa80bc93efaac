/**
 * inversify, class-validator, class-transformer and reflect-metadata belong
 * to the application (it owns the container, the DTO decorators and the
 * metadata polyfill), so affordance names them as peer dependencies. Tried as
 * an application installs it: the packed package from the npm registry's
 * point of view, `npm install`ed into fresh projects beside the oldest and the
 * newest version of each peer range, compiled with decorators and run:
 * one copy of each peer, params validated, a service injected, a section
 * built per evaluation. An application on an inversify outside the range is
 * stopped by npm at install, naming affordance's range.
 *
 * Needs the npm registry (as `.ci/run`'s own `npm install` does).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { packAffordance, repo, runPlain, runPlainAsync } from '../support/pack-affordance.js';

/** The applications' sets of peers, installed at once in `beforeAll` (npm spends its time waiting on the registry). */
const peerSets = {
  oldest: [
    'class-validator@0.14.1',
    'class-transformer@0.5.1',
    'inversify@8.2.3',
    'reflect-metadata@0.2.2',
  ],
  newest: ['class-validator@0.15', 'class-transformer@0.5', 'inversify@8', 'reflect-metadata@0.2'],
  'too-old': ['inversify@8.1.3'],
} as const;

/** How an install went: its folder, or npm's failure. */
type Installed = { folder: string; failure?: undefined } | { folder: string; failure: string };

let work: string;
let tarball: string;
let installs: Record<keyof typeof peerSets, Promise<Installed>>;
const peerRanges = (
  JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'affordance-peers-'));
  tarball = packAffordance(work).tarball;
  const settle = (name: keyof typeof peerSets): Promise<Installed> =>
    install(name, peerSets[name]).then(
      (folder) => ({ folder }),
      (error: unknown) => ({ folder: join(work, name), failure: (error as Error).message }),
    );
  installs = { oldest: settle('oldest'), newest: settle('newest'), 'too-old': settle('too-old') };
}, 240_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/**
 * The application: a decorated section injecting a singleton service, a
 * validated tool, two evaluations (the second with a refused and an accepted call).
 */
const application = `import 'reflect-metadata';

import { IsInt, IsString, Min } from 'class-validator';
import { Container, inject, injectable } from 'inversify';

import { Prompt, Section, Session, Tool, type ToolContext, ToolInvoked, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

@injectable()
class Ledger {
  readonly entries: string[] = [];
}

class RecordParams {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

let sectionsBuilt = 0;

@Section({ key: 'ledger', title: 'Ledger', template: 'Record what is asked.' })
class LedgerSection {
  constructor(@inject(Ledger) private readonly ledger: Ledger) {
    sectionsBuilt++;
  }

  @Tool({ name: 'record', description: 'Record an item.' })
  record(params: RecordParams, _context: ToolContext): ToolResult<string> {
    this.ledger.entries.push(\`\${params.item} x\${params.quantity}\`);
    return ToolResult.ok('recorded');
  }
}

const { container, runtime, adapter } = createTestRuntime({
  script: [
    { toolCalls: [{ name: 'record', arguments: { item: 'apples', quantity: 2 } }] },
    { text: 'Recorded.' },
    {
      toolCalls: [
        { name: 'record', arguments: { item: 'pears', quantity: 0 } },
        { name: 'record', arguments: { item: 'plums', quantity: 3 } },
      ],
    },
    { text: 'Refused.' },
  ],
  configure: (c) => c.bind(Ledger).toSelf().inSingletonScope(),
});
const prompt = new Prompt({ ns: 'peers', key: 'ledger', sections: [LedgerSection] });
const session = new Session();
const texts: (string | null)[] = [];
for (const input of ['two apples', 'no pears']) {
  texts.push((await runtime.evaluate(prompt, { session, input })).text);
}
adapter.assertDone();
console.log(JSON.stringify({
  texts,
  outcomes: session.slice(ToolInvoked).all().map((call) => call.outcome),
  refusal: session.slice(ToolInvoked).all()[1]?.renderedMessage,
  entries: container.get(Ledger).entries,
  sectionsBuilt,
  sameInversify: container instanceof Container,
}));
`;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    types: [],
  },
  files: ['app.ts'],
};

/** A fresh project with `packages` and the packed affordance installed from the registry. */
async function install(name: string, packages: readonly string[]): Promise<string> {
  const folder = join(work, name);
  mkdirSync(folder);
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }),
  );
  await runPlainAsync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...packages],
    folder,
  );
  return folder;
}

/** The version of every copy of `name` installed in `folder`. */
function copiesOf(folder: string, name: string): string[] {
  const listed = runPlain('npm', ['ls', name, '--all', '--parseable', '--long'], folder);
  return listed
    .split('\n')
    .filter((line) => line.includes(`:${name}@`))
    .map((line) => line.slice(line.lastIndexOf('@') + 1).split(':')[0] as string);
}

describe('affordance beside the versions of its peer ranges', () => {
  it('names the application-owned packages as peers, not as its own dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const peer of ['inversify', 'class-validator', 'class-transformer', 'reflect-metadata']) {
      expect(peerRanges[peer]).toBeDefined();
      expect(manifest.dependencies[peer]).toBeUndefined();
    }
  });

  it.each([['oldest', peerSets.oldest] as const, ['newest', peerSets.newest] as const])(
    'validates, injects and scopes with the %s versions, one copy of each',
    async (name, packages) => {
      const { folder, failure } = await installs[name];
      expect(failure).toBeUndefined();
      for (const wanted of packages) {
        const at = wanted.lastIndexOf('@');
        const peer = wanted.slice(0, at);
        const copies = copiesOf(folder, peer);
        expect({ peer, copies: copies.length }).toEqual({ peer, copies: 1 });
        expect(copies[0]?.startsWith(wanted.slice(at + 1))).toBe(true);
      }
      writeFileSync(join(folder, 'app.ts'), application);
      writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
      expect(
        runPlain('node', [join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'], folder),
      ).toBe('');
      const printed = JSON.parse(runPlain('node', ['app.js'], folder)) as Record<string, unknown>;
      expect(printed).toEqual({
        texts: ['Recorded.', 'Refused.'],
        outcomes: ['success', 'failure', 'success'],
        refusal: expect.stringContaining('quantity') as unknown,
        // One singleton Ledger for the whole runtime; a section built for each call that ran.
        entries: ['apples x2', 'plums x3'],
        sectionsBuilt: 2,
        sameInversify: true,
      });
    },
    240_000,
  );

  it('is refused by npm at install beside an inversify outside its range, naming the range', async () => {
    const { failure } = await installs['too-old'];
    expect(failure).toContain('ERESOLVE');
    expect(failure).toContain(`peer inversify@"${peerRanges['inversify']}" from affordance@`);
  }, 240_000);
});
