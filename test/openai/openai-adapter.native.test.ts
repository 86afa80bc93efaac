import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import {
  ApplyPatchOperation,
  ApplyPatchTool,
  OpenAIAdapter,
  ShellCallParams,
  ShellCommandOutput,
  ShellTool,
} from '../../src/openai/index.js';
import { MarkdownSection } from '../../src/prompt/markdown-section.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { Session } from '../../src/session/session.js';
import { NativeTool } from '../../src/tools/native-tool.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchRejection } from '../support/catch-error.js';
import { type OpenAIHarness, startOpenAI } from '../support/openai-harness.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';

type Body = Record<string, unknown>;

const promptWith = (...tools: ToolDefinition[]): Prompt =>
  new Prompt({
    ns: 'test/openai',
    key: 'native',
    sections: [
      new MarkdownSection({ key: 'tools', title: 'Tools', template: 'Use the tools.', tools }),
    ],
  });

const webSearch = new NativeTool({ type: 'web_search', config: { search_context_size: 'low' } });
const fileSearch = new NativeTool({ type: 'file_search', config: { vector_store_ids: ['vs_1'] } });
const codeInterpreter = new NativeTool({ type: 'code_interpreter' });

const searchCall = (status = 'completed'): Body => ({
  id: 'ws_1',
  type: 'web_search_call',
  status,
  action: { type: 'search', query: 'weather Paris', queries: ['weather Paris'] },
});

describe(OpenAIAdapter, () => {
  let harness: OpenAIHarness;
  let session: Session;

  beforeEach(async () => {
    harness = await startOpenAI();
    session = new Session();
  });
  afterEach(async () => {
    expect(harness.server.problems()).toEqual([]);
    expect(harness.server.pending).toBe(0);
    await harness.server.close();
  });

  describe('.request (native tools)', () => {
    it('should offer native tools as hosted entries and record their calls as native ToolInvoked events', async () => {
      const interpreterCall = {
        id: 'ci_1',
        type: 'code_interpreter_call',
        status: 'completed',
        code: 'print(6 * 7)',
        container_id: 'cntr_1',
        outputs: [{ type: 'logs', logs: '42' }],
      };
      harness.server.reply({
        json: responseBody([searchCall(), interpreterCall, message('It is sunny; 6 × 7 = 42.')]),
      });

      const response = await harness.runtime.evaluate(
        promptWith(webSearch, fileSearch, codeInterpreter),
        {
          session,
        },
      );

      expect(response.text).toBe('It is sunny; 6 × 7 = 42.');
      expect(harness.server.requests[0]?.body['tools']).toEqual([
        { type: 'web_search', search_context_size: 'low' },
        { type: 'file_search', vector_store_ids: ['vs_1'] },
        { type: 'code_interpreter', container: { type: 'auto' } },
      ]);
      const events = session.slice(ToolInvoked).all();
      expect(
        events.map((event) => [event.name, event.callId, event.native, event.outcome]),
      ).toEqual([
        ['web_search', 'ws_1', true, 'success'],
        ['code_interpreter', 'ci_1', true, 'success'],
      ]);
      expect(events[0]?.rawArguments).toEqual(searchCall()['action']);
      expect(events[0]?.result.value).toEqual(searchCall());
      expect(events[0]?.renderedMessage).toMatch(/^Searched the web for 'weather Paris'\./);
      expect(events[1]?.rawArguments).toEqual({ code: 'print(6 * 7)', container_id: 'cntr_1' });
      expect(response.toolCalls.map((outcome) => outcome.event.native)).toEqual([true, true]);
    });

    it('should record a failed hosted call as a failed native result, and replay it next turn', async () => {
      const lookup = functionCall('note', {});
      harness.server.reply(
        { json: responseBody([searchCall('failed'), lookup]) },
        { json: responseBody([message('Search is down.')]) },
      );
      const note = new ToolDefinition({
        name: 'note',
        description: 'Take a note.',
        handler: () => ToolResult.ok(null, 'Noted.'),
      });

      await harness.runtime.evaluate(promptWith(webSearch, note), { session });

      const [search] = session.slice(ToolInvoked).all();
      expect([search?.native, search?.outcome, search?.result.message]).toEqual([
        true,
        'failure',
        'web_search (web_search_call) failed.',
      ]);
      const input = harness.server.requests[1]?.body['input'] as Body[];
      expect(input.map((item) => item['type'])).toContain('web_search_call');
    });

    it('should send a forced native tool in its hosted tool_choice form', async () => {
      harness.server.reply(
        { json: responseBody([message('a')]) },
        { json: responseBody([message('b')]) },
      );

      await harness.runtime.evaluate(promptWith(codeInterpreter, webSearch), {
        toolChoice: { name: 'code_interpreter' },
      });
      await harness.runtime.evaluate(promptWith(codeInterpreter, webSearch), {
        toolChoice: { name: 'web_search' },
      });

      expect(harness.server.requests.map((request) => request.body['tool_choice'])).toEqual([
        { type: 'code_interpreter' },
        { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] },
      ]);
    });

    it('should record a shell call the provider ran in its container with its output', async () => {
      const hostedShell = new NativeTool({
        type: 'shell',
        config: { environment: { type: 'container_auto' } },
      });
      const call = {
        id: 'sh_1',
        type: 'shell_call',
        status: 'completed',
        call_id: 'call_sh_1',
        action: { commands: ['uname'], timeout_ms: null, max_output_length: null },
        environment: { type: 'container_reference', container_id: 'cntr_1' },
      };
      const output = {
        id: 'sho_1',
        type: 'shell_call_output',
        status: 'completed',
        call_id: 'call_sh_1',
        max_output_length: null,
        output: [{ stdout: 'Linux\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      };
      harness.server.reply({ json: responseBody([call, output, message('It runs Linux.')]) });

      await harness.runtime.evaluate(promptWith(hostedShell), { session });

      expect(harness.server.requests[0]?.body['tools']).toEqual([
        { type: 'shell', environment: { type: 'container_auto' } },
      ]);
      const [event] = session.slice(ToolInvoked).all();
      expect([event?.name, event?.callId, event?.native]).toEqual(['shell', 'call_sh_1', true]);
      expect(event?.result.value).toEqual({ call, output });
    });
  });

  describe('.request (shell and apply_patch run by the client)', () => {
    it('should run shell calls with the handler and answer with shell_call_output items', async () => {
      const received: ShellCallParams[] = [];
      const shell = new ShellTool({
        environment: { type: 'local' },
        handler: (params) => {
          received.push(params);
          return ToolResult.ok([
            ShellCommandOutput.of('/home/ada\n'),
            ShellCommandOutput.of('', 'sleep: interrupted', null),
          ]);
        },
      });
      const call = {
        id: 'sh_1',
        type: 'shell_call',
        status: 'completed',
        call_id: 'call_sh_1',
        action: { commands: ['pwd', 'sleep 100'], timeout_ms: 1000, max_output_length: 5 },
      };
      harness.server.reply(
        { json: responseBody([call]) },
        { json: responseBody([message('You are in /home/ada.')]) },
      );

      await harness.runtime.evaluate(promptWith(shell), { session });

      expect(harness.server.requests[0]?.body['tools']).toEqual([
        { type: 'shell', environment: { type: 'local' } },
      ]);
      expect(received).toEqual([
        Object.assign(new ShellCallParams(), {
          commands: ['pwd', 'sleep 100'],
          timeoutMs: 1000,
          maxOutputLength: 5,
        }),
      ]);
      expect((harness.server.requests[1]?.body['input'] as Body[]).slice(-2)).toEqual([
        call,
        {
          type: 'shell_call_output',
          call_id: 'call_sh_1',
          max_output_length: 5,
          output: [
            { stdout: '/home', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
            { stdout: '', stderr: 'sleep', outcome: { type: 'timeout' } },
          ],
        },
      ]);
      const [event] = session.slice(ToolInvoked).all();
      expect([event?.name, event?.native, event?.outcome]).toEqual(['shell', false, 'success']);
    });

    it('should report a failed shell handler as exit code 1 with the message on stderr', async () => {
      const shell = new ShellTool({
        handler: () => ToolResult.error('Commands are disabled here.'),
      });
      harness.server.reply(
        {
          json: responseBody([
            {
              id: 'sh_2',
              type: 'shell_call',
              status: 'completed',
              call_id: 'call_2',
              action: { commands: ['ls'] },
            },
          ]),
        },
        { json: responseBody([message('Cannot run it.')]) },
      );

      await harness.runtime.evaluate(promptWith(shell));

      expect((harness.server.requests[1]?.body['input'] as Body[]).at(-1)).toEqual({
        type: 'shell_call_output',
        call_id: 'call_2',
        output: [
          {
            stdout: '',
            stderr: 'Commands are disabled here.',
            outcome: { type: 'exit', exit_code: 1 },
          },
        ],
      });
    });

    it.each([
      [true, 'completed'],
      [false, 'failed'],
    ])(
      'should apply patches with the handler (success %s) and answer %s',
      async (succeed, status) => {
        const received: ApplyPatchOperation[] = [];
        const patch = new ApplyPatchTool({
          handler: (operation) => {
            received.push(operation);
            return succeed
              ? ToolResult.ok(null, `Created ${operation.path}.`)
              : ToolResult.error('Disk is read-only.');
          },
        });
        const operation = { type: 'create_file', path: 'notes.md', diff: '+# Notes\n' };
        harness.server.reply(
          {
            json: responseBody([
              {
                id: 'apc_1',
                type: 'apply_patch_call',
                status: 'completed',
                call_id: 'call_p',
                operation,
              },
            ]),
          },
          { json: responseBody([message('Done.')]) },
        );

        await harness.runtime.evaluate(promptWith(patch), { toolChoice: { name: 'apply_patch' } });

        expect(harness.server.requests[0]?.body['tools']).toEqual([{ type: 'apply_patch' }]);
        expect(harness.server.requests[0]?.body['tool_choice']).toEqual({ type: 'apply_patch' });
        expect(received).toEqual([Object.assign(new ApplyPatchOperation(), operation)]);
        expect((harness.server.requests[1]?.body['input'] as Body[]).at(-1)).toEqual({
          type: 'apply_patch_call_output',
          call_id: 'call_p',
          status,
          output: succeed ? 'Created notes.md.' : 'Disk is read-only.',
        });
      },
    );
  });

  describe('.validate', () => {
    it.each([
      [
        'a native apply_patch',
        new NativeTool({ type: 'apply_patch' }),
        'new ApplyPatchTool({ handler })',
      ],
      [
        'a native shell without a container',
        new NativeTool({ type: 'shell' }),
        'new ShellTool({ handler })',
      ],
      [
        'file_search without vector stores',
        new NativeTool({ type: 'file_search' }),
        'vector_store_ids',
      ],
    ])('should reject %s before any request', async (_what, tool, fix) => {
      const error = await catchRejection(PromptValidationError, () =>
        harness.runtime.evaluate(promptWith(tool)),
      );

      expect(error.message).toContain(fix);
      expect(harness.server.requests).toHaveLength(0);
    });

    it('should reject two shell tools', async () => {
      const hosted = new NativeTool({
        type: 'shell',
        name: 'hosted_shell',
        config: { environment: { type: 'container_auto' } },
      });
      const local = new ShellTool({ handler: () => ToolResult.ok([]) });

      const error = await catchRejection(PromptValidationError, () =>
        harness.runtime.evaluate(promptWith(local, hosted)),
      );

      expect(error.message).toContain("takes one 'shell' tool per request");
    });
  });
});
