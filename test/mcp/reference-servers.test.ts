/**
 * `McpToolsSection` against the reference MCP servers published as
 * `@modelcontextprotocol/server-everything`, `-filesystem` and `-memory`
 * (dev dependencies), each started over stdio: every tool they list is
 * accepted with `unsupportedSchemas: 'error'` (none skipped), and a few are
 * called through the runtime, including server-everything's task-only tool.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Container } from 'inversify';

import { installAffordance, Prompt } from 'affordance';
import { type McpCommandServer, McpToolsSection } from 'affordance/mcp';

const root = process.cwd();
const bin = (name: string) =>
  join(root, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
let dir: string;
const sections: McpToolsSection[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'affordance-reference-'));
});

afterAll(async () => {
  for (const section of sections.splice(0)) await section.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The tool names the server lists to a plain SDK client. */
async function listedNames(server: McpCommandServer): Promise<string[]> {
  const client = new Client({ name: 'lister', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
      stderr: 'ignore',
    }),
  );
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

/** Connects strictly, checks every listed tool is offered, and returns a call function. */
async function connectAll(key: string, server: McpCommandServer) {
  const section = await McpToolsSection.connect({ key, server, unsupportedSchemas: 'error' });
  sections.push(section);
  const names = await listedNames(server);
  expect(names.length).toBeGreaterThan(0);
  expect(section.skipped).toEqual([]);
  expect(section.tools.map((tool) => tool.name).sort()).toEqual(names.sort());
  const prompt = new Prompt({ ns: 'test', key, sections: [section] });
  const runtime = installAffordance(new Container());
  const call = async (name: string, args: Record<string, unknown>) =>
    runtime.callTool(prompt, { name, arguments: args });
  return { section, call, runtime, prompt };
}

const env = () => ({ PATH: process.env['PATH'] ?? '' });

describe('the reference MCP servers over stdio', () => {
  it('server-everything: every tool accepted; echo, get-sum and the task-only research query called', async () => {
    const { section, call, runtime, prompt } = await connectAll('everything', {
      command: process.execPath,
      args: [bin('server-everything'), 'stdio'],
      env: env(),
    });
    expect(section.tools.length).toBeGreaterThanOrEqual(13);

    expect((await call('echo', { message: 'hello' })).message).toBe('Echo: hello');
    expect((await call('get-sum', { a: 2, b: 40 })).message).toContain('42');
    const invalid = await call('get-sum', { a: 2 });
    expect(invalid.result.success).toBe(false);
    expect(invalid.message).toContain('b: is required');

    // execution.taskSupport: 'required': created as a task, polled, its result read.
    const research = await call('simulate-research-query', { topic: 'tides' });
    expect(research.result.success).toBe(true);
    expect(research.message).toContain('# Research Report: tides');

    // The call's signal stops the polling at once (and cancels the task on the server).
    const controller = new AbortController();
    const statuses: string[] = [];
    const aborted = runtime.callTool(
      prompt,
      { name: 'simulate-research-query', arguments: { topic: 'reefs' } },
      {
        signal: controller.signal,
        onProgress: (report) => {
          statuses.push(report.message ?? '');
          controller.abort('enough');
        },
      },
    );
    await expect(aborted).rejects.toThrow();
    expect(statuses[0]).toMatch(/\.\.\.$/);
  }, 60_000);

  it('server-filesystem: every tool accepted; writes, reads, edits and lists files', async () => {
    const { call } = await connectAll('files', {
      command: process.execPath,
      args: [bin('server-filesystem'), dir],
      env: env(),
    });
    const path = join(dir, 'notes.txt');
    expect((await call('write_file', { path, content: 'one\ntwo\n' })).result.success).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\n');
    expect((await call('read_text_file', { path, head: 1 })).message).toContain('one');
    const edited = await call('edit_file', { path, edits: [{ oldText: 'two', newText: 'three' }] });
    expect(edited.result.success).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('one\nthree\n');
    expect((await call('list_directory', { path: dir })).message).toContain('notes.txt');
    const refused = await call('edit_file', { path, edits: [{ oldText: 'x' }] });
    expect(refused.message).toContain('edits[0].newText: is required');
  }, 60_000);

  it('server-memory: every tool accepted; creates entities and relations and finds them', async () => {
    const file = join(dir, 'memory.jsonl');
    writeFileSync(file, '');
    const { call } = await connectAll('memory', {
      command: process.execPath,
      args: [bin('server-memory')],
      env: { ...env(), MEMORY_FILE_PATH: file },
    });
    const created = await call('create_entities', {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
        { name: 'Engine', entityType: 'machine', observations: [] },
      ],
    });
    expect(created.result.success).toBe(true);
    await call('create_relations', {
      relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }],
    });
    const found = await call('search_nodes', { query: 'program' });
    expect(found.message).toContain('Ada');
    const graph = await call('read_graph', {});
    expect(graph.message).toContain('programmed');
    expect(readFileSync(file, 'utf8')).toContain('"Ada"');
  }, 60_000);
});
