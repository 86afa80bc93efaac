import { IsString } from 'class-validator';

import {
  Filesystem,
  InMemoryFilesystem,
  MarkdownSection,
  type PolicyRef,
  Prompt,
  type PromptResponse,
  ResourceRegistry,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { FilesystemToolsSection, ReadBeforeWritePolicy } from 'affordance/filesystem';
import {
  createTestRuntime,
  ScriptedAdapter,
  type ScriptedToolCall,
  type ScriptedTurn,
} from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';

class ColleagueParams {
  @IsString() path!: string;
  @IsString() content!: string;
}

/** Someone else changing a file: writes straight through the filesystem, not through fs_write. */
const colleague = new ToolDefinition({
  name: 'colleague_writes',
  description: 'Simulates a colleague saving a file.',
  params: ColleagueParams,
  handler: async (params, context) => {
    await context.filesystem?.write(params.path, params.content, { mode: 'overwrite' });
    return ToolResult.ok(null, 'The colleague saved the file.');
  },
});

function editorPrompt(policies: PolicyRef[] = [new ReadBeforeWritePolicy()]): Prompt {
  return new Prompt({
    ns: 'tests',
    key: 'editor',
    policies,
    sections: [
      FilesystemToolsSection,
      new MarkdownSection({ key: 'team', title: 'Team', template: 'T.', tools: [colleague] }),
    ],
  });
}

const notes = 'alpha\nbeta\ngamma\n';

interface Workspace {
  readonly filesystem: InMemoryFilesystem;
  readonly resources: ResourceRegistry;
  readonly session: Session;
  /** One evaluation: each call in its own model turn, then a final answer. */
  run(calls: readonly ScriptedToolCall[], prompt?: Prompt): Promise<Run>;
}

interface Run {
  readonly response: PromptResponse;
  readonly adapter: ScriptedAdapter;
}

function workspace(files: Readonly<Record<string, string>> = { 'notes.md': notes }): Workspace {
  const filesystem = new InMemoryFilesystem({ files });
  const resources = new ResourceRegistry().bind(Filesystem, { create: () => filesystem });
  const session = new Session();
  return {
    filesystem,
    resources,
    session,
    async run(calls, prompt = editorPrompt()) {
      const script: ScriptedTurn[] = [
        ...calls.map((call) => ({ toolCalls: [call] })),
        { text: 'Done.' },
      ];
      const { adapter, evaluate } = createTestRuntime({ script });
      const response = await evaluate(prompt, { session, resources });
      return { response, adapter };
    },
  };
}

let ids = 0;
const call = (name: string, args: object): ScriptedToolCall => {
  ids += 1;
  return { callId: `c${ids}`, name, arguments: args };
};
const read = (path: string, window: object = {}) => call('fs_read', { path, ...window });
const edit = (path: string, oldText: string, newText: string) =>
  call('fs_edit', { path, edits: [{ oldText, newText }] });
const write = (path: string, content: string, mode?: string) =>
  call('fs_write', mode === undefined ? { path, content } : { path, content, mode });
const external = (path: string, content: string) => call('colleague_writes', { path, content });

const outcomes = ({ response }: Run): string[][] =>
  response.toolCalls.map((outcome) => [outcome.call.name, outcome.event.outcome]);

const denial = (tool: string, reason: string, path: string): string =>
  `Policy 'read_before_write' denied this call of '${tool}': ${reason} To proceed: Call fs_read for ${path} first.`;

describe('ReadBeforeWritePolicy with the filesystem tools', () => {
  it('denies overwriting a file this evaluation has not read; the file stays as it was', async () => {
    const ws = workspace();
    const run = await ws.run([write('notes.md', 'replaced\n', 'overwrite')]);

    const expected = denial(
      'fs_write',
      "'notes.md' was not read in this evaluation; writing over it could lose content you have not seen.",
      'notes.md',
    );
    expect(run.response.toolCalls[0]?.message).toBe(expected);
    expect(toolMessages(run.adapter.requests[1])).toEqual([['c' + String(ids), expected]]);
    expect(outcomes(run)).toEqual([['fs_write', 'denied']]);
    expect(await ws.filesystem.readText('notes.md')).toBe(notes);
  });

  it('denies appending to or editing an unread file', async () => {
    const ws = workspace();
    const run = await ws.run([
      write('notes.md', 'delta\n', 'append'),
      edit('notes.md', 'beta', 'BETA'),
    ]);

    expect(outcomes(run)).toEqual([
      ['fs_write', 'denied'],
      ['fs_edit', 'denied'],
    ]);
    expect(run.response.toolCalls[1]?.message).toBe(
      denial(
        'fs_edit',
        "'notes.md' was not read in this evaluation; editing it could lose content you have not seen.",
        'notes.md',
      ),
    );
    expect(await ws.filesystem.readText('notes.md')).toBe(notes);
  });

  it('allows editing after a read, and further changes to the file the evaluation itself changed', async () => {
    const ws = workspace();
    const run = await ws.run([
      read('notes.md'),
      edit('notes.md', 'beta', 'BETA'),
      edit('notes.md', 'gamma', 'GAMMA'),
      write('notes.md', 'delta\n', 'append'),
    ]);

    expect(outcomes(run).map(([, outcome]) => outcome)).toEqual([
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(await ws.filesystem.readText('notes.md')).toBe('alpha\nBETA\nGAMMA\ndelta\n');
  });

  it('denies an edit after the file changed since the read (outside the lines shown), until it is read again', async () => {
    const ws = workspace();
    const run = await ws.run([
      read('notes.md', { startLine: 1, lineCount: 1 }),
      external('notes.md', 'alpha\nbeta\ngamma (reviewed)\n'),
      edit('notes.md', 'alpha', 'ALPHA'),
      read('notes.md'),
      edit('notes.md', 'alpha', 'ALPHA'),
    ]);

    expect(outcomes(run)).toEqual([
      ['fs_read', 'success'],
      ['colleague_writes', 'success'],
      ['fs_edit', 'denied'],
      ['fs_read', 'success'],
      ['fs_edit', 'success'],
    ]);
    expect(run.response.toolCalls[2]?.message).toBe(
      denial(
        'fs_edit',
        "'notes.md' changed since it was read in this evaluation; editing it could lose the change.",
        'notes.md',
      ),
    );
    expect(await ws.filesystem.readText('notes.md')).toBe('ALPHA\nbeta\ngamma (reviewed)\n');
  });

  it('counts a read of some lines as a read of the whole file', async () => {
    const ws = workspace();
    const run = await ws.run([
      read('notes.md', { startLine: 1, lineCount: 1 }),
      edit('notes.md', 'gamma', 'GAMMA'),
    ]);

    expect(outcomes(run)).toEqual([
      ['fs_read', 'success'],
      ['fs_edit', 'success'],
    ]);
  });

  it('allows creating files, and changing a file the evaluation created without reading it', async () => {
    const ws = workspace();
    const run = await ws.run([
      write('docs/new.md', 'draft\n'),
      edit('docs/new.md', 'draft', 'final'),
      write('docs/other.md', 'made by overwrite\n', 'overwrite'),
      write('notes.md', 'clash\n'),
    ]);

    expect(outcomes(run)).toEqual([
      ['fs_write', 'success'],
      ['fs_edit', 'success'],
      ['fs_write', 'success'],
      // Mode create on an existing file: the policy lets the tool refuse it.
      ['fs_write', 'failure'],
    ]);
    expect(await ws.filesystem.readText('docs/new.md')).toBe('final\n');
    expect(await ws.filesystem.readText('notes.md')).toBe(notes);
  });

  it('compares normalised paths', async () => {
    const ws = workspace({ 'docs/notes.md': notes });
    const run = await ws.run([
      read('./docs/../docs/notes.md'),
      edit('docs//notes.md', 'beta', 'BETA'),
      edit('/docs/notes.md', 'gamma', 'GAMMA'),
    ]);

    expect(outcomes(run).map(([, outcome]) => outcome)).toEqual(['success', 'success', 'success']);
  });

  it('keeps reads per evaluation: a read by an earlier evaluation on the session does not count', async () => {
    const ws = workspace();
    const first = await ws.run([read('notes.md'), edit('notes.md', 'beta', 'BETA')]);
    const second = await ws.run([edit('notes.md', 'gamma', 'GAMMA')]);

    expect(outcomes(first).map(([, outcome]) => outcome)).toEqual(['success', 'success']);
    expect(outcomes(second)).toEqual([['fs_edit', 'denied']]);
    expect(second.response.toolCalls[0]?.message).toContain('was not read in this evaluation');
  });

  it('forgets the record of a write that was undone, with the write', async () => {
    let writes = 0;
    const failsFirstWrite: PolicyRef = {
      name: 'audit',
      afterResult: ({ tool }) => {
        if (tool.name === 'fs_write' && (writes += 1) === 1) throw new Error('audit log full');
      },
    };
    const ws = workspace();
    const run = await ws.run(
      [
        read('notes.md'),
        write('notes.md', 'replaced\n', 'overwrite'),
        edit('notes.md', 'beta', 'BETA'),
      ],
      editorPrompt([new ReadBeforeWritePolicy(), failsFirstWrite]),
    );

    // The overwrite ran and recorded its digest, then was undone: the file and the record are
    // back to what the read saw, so the edit of the original text is allowed.
    expect(outcomes(run)).toEqual([
      ['fs_read', 'success'],
      ['fs_write', 'failure'],
      ['fs_edit', 'success'],
    ]);
    expect(run.response.toolCalls[1]?.message).toContain('audit log full');
    expect(await ws.filesystem.readText('notes.md')).toBe('alpha\nBETA\ngamma\n');
  });

  it('keeps what the evaluation read when it pauses for approval and resumes elsewhere', async () => {
    const approval = new ToolDefinition({
      name: 'ask_reviewer',
      description: 'Ask a reviewer to look.',
      approval: true,
      handler: () => ToolResult.ok(null, 'The reviewer agreed.'),
    });
    // Built twice: the resumed run has its own prompt, policy and runtime, as in another process.
    const reviewedEditor = (): Prompt =>
      new Prompt({
        ns: 'tests',
        key: 'reviewed-editor',
        policies: [new ReadBeforeWritePolicy()],
        sections: [
          FilesystemToolsSection,
          new MarkdownSection({
            key: 'review',
            title: 'Review',
            template: 'R.',
            tools: [approval],
          }),
        ],
      });
    const ws = workspace();
    const before = createTestRuntime({
      script: [{ toolCalls: [read('notes.md')] }, { toolCalls: [call('ask_reviewer', {})] }],
    });
    const paused = await before.evaluate(reviewedEditor(), {
      session: ws.session,
      resources: ws.resources,
    });
    if (paused.status !== 'interrupted') throw new Error('expected the evaluation to pause');
    const saved = JSON.stringify(paused.interruption.state);
    const pending = paused.interruption.pending[0]?.callId ?? '';

    const after = createTestRuntime();
    const done = await after.runtime.resume(
      reviewedEditor(),
      JSON.parse(saved) as typeof paused.interruption.state,
      [{ callId: pending, approved: true }],
      {
        session: ws.session,
        resources: ws.resources,
        adapter: new ScriptedAdapter([
          { toolCalls: [edit('notes.md', 'beta', 'BETA')] },
          { text: 'Edited.' },
        ]),
      },
    );

    expect(done.toolCalls.map((outcome) => outcome.event.outcome)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(await ws.filesystem.readText('notes.md')).toBe('alpha\nBETA\ngamma\n');
  });

  it('leaves calls of other tools and of a path with no file to the tools themselves', async () => {
    const ws = workspace();
    const run = await ws.run([
      edit('missing.md', 'a', 'b'),
      write('../outside.md', 'x', 'overwrite'),
      call('fs_list', {}),
    ]);

    expect(outcomes(run)).toEqual([
      ['fs_edit', 'failure'],
      ['fs_write', 'failure'],
      ['fs_list', 'success'],
    ]);
    expect(run.response.toolCalls[0]?.message).not.toContain('read_before_write');
    expect(run.response.toolCalls[1]?.message).toMatch(/escapes the root/);
  });
});
