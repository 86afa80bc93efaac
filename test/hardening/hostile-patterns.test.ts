/**
 * No pattern from a params class or from a remote MCP server's schema runs on
 * a backtracking engine where the application did not ask for it (docs/guide/guarantees.md): the probe that decides whether a constraint can take the
 * compiled path never runs an application's `@Matches` pattern and probes
 * bounded values only, and a remote schema's `pattern` runs on the linear
 * engine or the tool is refused. A remote schema nested too deeply is a
 * schema problem, not a stack overflow.
 *
 * Before the fix, the scenarios of `fixtures/hostile-patterns-child.ts` blocked
 * the event loop for minutes (an exponential pattern on the 300-character
 * probe, a pattern run by `RegExp` on the model's argument, a 100,000-value
 * enum probed value by value): each runs in its own process, stopped after
 * a minute, so a hang fails its test instead of the run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { ConfigurationError } from 'affordance';
import { McpToolsSection, paramsClassFromJsonSchema } from 'affordance/mcp';

import { oneField, type RawTool, rawSchemaTransport } from './fixtures/raw-schema-server.js';

const root = process.cwd();
let built: string;

/** How long a scenario may run before it counts as hung: it answers in about a second. */
const hangGuardMs = 60_000;

beforeAll(() => {
  // Inside the project, so the compiled fixture resolves the project's node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  built = mkdtempSync(join(root, 'node_modules/.cache/affordance-hostile-'));
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'test/hardening/fixtures/tsconfig.json',
      '--outDir',
      built,
      // Emit only: `npm run typecheck` type-checks the fixtures (tsconfig.json includes test/).
      '--noCheck',
    ],
    { cwd: root, stdio: 'pipe' },
  );
}, 180_000);

afterAll(() => {
  rmSync(built, { recursive: true, force: true });
});

/** Runs one scenario of the child fixture: what it printed, or how it failed to answer. */
function runScenario(scenario: string): Promise<unknown> {
  const script = join(built, 'test/hardening/fixtures/hostile-patterns-child.js');
  const child = spawn(process.execPath, [script, scenario], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), hangGuardMs);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(guard);
      if (signal === 'SIGKILL') resolve(`hung: no answer within ${hangGuardMs / 1000} s`);
      else if (code !== 0) resolve(`failed (exit ${String(code)}): ${stderr}`);
      else resolve(JSON.parse(stdout) as unknown);
    });
  });
}

const perScenario = hangGuardMs + 30_000;

describe('the probe of a params class never runs its patterns', () => {
  it(
    "an application's @Matches(/^(\\w+)*!$/) and @Matches('^(x+x+)+y$') validate short arguments at once",
    async () => {
      expect(await runScenario('application-pattern')).toEqual({
        accepted: { q: 'hi!', code: 'XXy' },
        rejected: expect.stringMatching(
          /q: must match .* regular expression; code: must match/,
        ) as string,
      });
    },
    perScenario,
  );
});

describe("a remote MCP server's schema cannot hang its client", () => {
  it(
    "runs a tool's pattern (x+x+)+y or ^(a+)+$ on the linear engine: each call is checked at once",
    async () => {
      expect(await runScenario('remote-pattern')).toEqual([
        { success: false, message: expect.stringContaining('q: must match /') as string },
        { success: true, message: 'find {"q":"xxy"}' },
        { success: false, message: expect.stringContaining('q: must match /') as string },
        { success: true, message: 'count {"q":"aaa"}' },
      ]);
    },
    perScenario,
  );

  it(
    'probes a 100,000-value enum with a few of its values, not each of them',
    async () => {
      expect(await runScenario('remote-enum')).toEqual([
        { success: true, message: 'pick {"q":"v99999"}' },
        { success: false, message: expect.stringContaining('q: must be one of') as string },
      ]);
    },
    perScenario,
  );
});

const sections: McpToolsSection[] = [];

afterEach(async () => {
  for (const section of sections.splice(0)) await section.close();
});

async function connect(tools: readonly RawTool[], skip = false): Promise<McpToolsSection> {
  const section = await McpToolsSection.connect({
    key: 'raw',
    server: rawSchemaTransport(tools),
    unsupportedSchemas: skip ? ('skip' as const) : ('error' as const),
  });
  sections.push(section);
  return section;
}

describe('a remote pattern the linear engine cannot run refuses its tool', () => {
  const tools: RawTool[] = [
    { name: 'twice', inputSchema: oneField({ type: 'string', pattern: '^(a+)\\1$' }) },
    { name: 'ahead', inputSchema: oneField({ type: 'string', pattern: '^(?=x)\\w+$' }) },
    { name: 'plain', inputSchema: oneField({ type: 'string', pattern: '^[a-z]+$' }) },
  ];

  it('fails connect naming the tool, the schema path and the construct', async () => {
    const refused = connect(tools);
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(
      /'twice': \/properties\/q pattern \(The pattern uses a backreference '\\1'.*'ahead': \/properties\/q pattern \(The pattern uses a lookahead '\(\?=\.\.\.\)'/,
    );
  });

  it("with unsupportedSchemas: 'skip', offers the other tools and lists these in skipped", async () => {
    const section = await connect(tools, true);
    expect(section.tools.map((tool) => tool.name)).toEqual(['plain']);
    expect(section.skipped).toEqual([
      {
        name: 'twice',
        problems: [
          {
            pointer: '/properties/q',
            keyword: 'pattern',
            message: expect.stringContaining("backreference '\\1'") as string,
          },
        ],
      },
      {
        name: 'ahead',
        problems: [
          {
            pointer: '/properties/q',
            keyword: 'pattern',
            message: expect.stringContaining("lookahead '(?=...)'") as string,
          },
        ],
      },
    ]);
  });
});

describe('a remote schema nested 20,000 levels deep', () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 20_000; level++) deep = { type: 'object', properties: { a: deep } };

  it('is a schema problem of paramsClassFromJsonSchema, not a RangeError', () => {
    const read = paramsClassFromJsonSchema(deep, 'Deep');
    expect(read).toEqual({
      ok: false,
      problems: [
        {
          pointer: `${'/properties/a'.repeat(64)}/properties/a`,
          keyword: 'properties',
          message: expect.stringContaining('more than 64 levels') as string,
        },
      ],
    });
  });

  it('fails connect with a ConfigurationError naming the tool', async () => {
    const refused = connect([{ name: 'nest', inputSchema: deep }]);
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(/'nest': (\/properties\/a){65} properties \(/);
  });
});
