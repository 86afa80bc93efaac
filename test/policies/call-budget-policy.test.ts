import { IsOptional, IsString } from 'class-validator';

import {
  CallBudgetPolicy,
  type CallBudgetPolicyOptions,
  ConfigurationError,
  MarkdownSection,
  Prompt,
  type PromptResponse,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  createTestRuntime,
  ScriptedAdapter,
  type ScriptedToolCall,
  type ScriptedTurn,
} from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';
import { catchError } from '../support/catch-error.js';

class QueryParams {
  @IsOptional() @IsString() q?: string;
}

/** The handlers that ran, by tool name. */
const ran: string[] = [];

function tool(
  name: string,
  options: { readOnly?: boolean; approval?: boolean; fail?: boolean } = {},
): ToolDefinition<QueryParams> {
  return new ToolDefinition({
    name,
    description: `The ${name} tool.`,
    params: QueryParams,
    readOnly: options.readOnly ?? false,
    approval: options.approval,
    handler: () => {
      ran.push(name);
      return options.fail === true ? ToolResult.error(`${name} broke.`) : ToolResult.ok(null, 'ok');
    },
  });
}

function researchPrompt(policy: CallBudgetPolicy): Prompt {
  return new Prompt({
    ns: 'tests',
    key: 'research',
    policies: [policy],
    sections: [
      new MarkdownSection({
        key: 'research',
        title: 'Research',
        template: 'Research the question.',
        tools: [
          tool('search', { readOnly: true }),
          tool('fetch_page'),
          tool('flaky', { fail: true }),
          tool('publish', { approval: true }),
        ],
      }),
    ],
  });
}

/** One turn per group of calls, then a final answer. */
function script(...groups: (string | string[])[]): ScriptedTurn[] {
  let id = 0;
  const call = (name: string): ScriptedToolCall => {
    id += 1;
    return { callId: `c${id}`, name, arguments: {} };
  };
  return [
    ...groups.map((group) => ({
      toolCalls: (typeof group === 'string' ? [group] : group).map(call),
    })),
    { text: 'Here is what I found.' },
  ];
}

const outcomes = (response: PromptResponse): string[][] =>
  response.toolCalls.map((call) => [call.call.name, call.event.outcome]);

beforeEach(() => {
  ran.length = 0;
});

describe('CallBudgetPolicy through the runtime', () => {
  it('denies a tool at its own limit, with the limit and the count, and lets other tools run', async () => {
    const { adapter, evaluate } = createTestRuntime({
      script: script('search', 'search', 'search', 'fetch_page'),
    });
    const session = new Session();
    const response = await evaluate(
      researchPrompt(new CallBudgetPolicy({ perTool: { search: 2 } })),
      { session },
    );

    expect(outcomes(response)).toEqual([
      ['search', 'success'],
      ['search', 'success'],
      ['search', 'denied'],
      ['fetch_page', 'success'],
    ]);
    const expected =
      "Policy 'call_budget' denied this call of 'search': 'search' was already called 2 times in this evaluation; its limit is 2 calls. To proceed: Answer with what you have so far, without calling 'search' again.";
    expect(response.toolCalls[2]?.message).toBe(expected);
    expect(toolMessages(adapter.requests[3]).at(-1)).toEqual(['c3', expected]);
    expect(ran).toEqual(['search', 'search', 'fetch_page']);
    expect(
      session.view
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toContain('denied');
  });

  it('denies every tool at the total; failed calls count, denied ones do not', async () => {
    const { evaluate } = createTestRuntime({
      script: script('flaky', 'search', 'search', 'fetch_page', 'fetch_page'),
    });
    const response = await evaluate(
      researchPrompt(new CallBudgetPolicy({ perTool: { search: 1 }, total: 3 })),
    );

    // flaky fails (counts: 1), search runs (2), search is over its own limit (denied: not counted),
    // fetch_page runs (3), fetch_page meets the total.
    expect(outcomes(response)).toEqual([
      ['flaky', 'failure'],
      ['search', 'success'],
      ['search', 'denied'],
      ['fetch_page', 'success'],
      ['fetch_page', 'denied'],
    ]);
    expect(response.toolCalls[4]?.message).toBe(
      "Policy 'call_budget' denied this call of 'fetch_page': 3 tool calls were already made in this evaluation; the limit is 3 tool calls. To proceed: Answer with what you have so far, without calling more tools.",
    );
  });

  it('holds read-only calls the model makes together in one turn to the limit', async () => {
    const { evaluate } = createTestRuntime({
      script: script(['search', 'search', 'search', 'search']),
    });
    const response = await evaluate(
      researchPrompt(new CallBudgetPolicy({ perTool: { search: 2 } })),
    );

    expect(outcomes(response).map(([, outcome]) => outcome)).toEqual([
      'success',
      'success',
      'denied',
      'denied',
    ]);
    expect(ran).toEqual(['search', 'search']);
  });

  it('counts each evaluation on its own, even on one session', async () => {
    const policy = new CallBudgetPolicy({ total: 1 });
    const session = new Session();
    const first = createTestRuntime({ script: script('search', 'search') });
    const second = createTestRuntime({ script: script('search') });

    const one = await first.evaluate(researchPrompt(policy), { session });
    const two = await second.evaluate(researchPrompt(policy), { session });

    expect(outcomes(one)).toEqual([
      ['search', 'success'],
      ['search', 'denied'],
    ]);
    expect(outcomes(two)).toEqual([['search', 'success']]);
  });

  it('goes on counting where a paused evaluation stopped when it resumes', async () => {
    const policy = new CallBudgetPolicy({ total: 2 });
    const session = new Session();
    const { runtime, evaluate } = createTestRuntime({
      script: [
        { toolCalls: [{ callId: 'a', name: 'search' }] },
        { toolCalls: [{ callId: 'b', name: 'publish' }] },
      ],
    });
    const paused = await evaluate(researchPrompt(policy), { session });
    if (paused.status !== 'interrupted') throw new Error('expected the evaluation to pause');

    const done = await runtime.resume(
      researchPrompt(policy),
      paused.interruption.state,
      [{ callId: 'b', approved: true }],
      {
        session,
        adapter: new ScriptedAdapter([
          { toolCalls: [{ callId: 'c', name: 'fetch_page' }] },
          { text: 'Published.' },
        ]),
      },
    );

    expect(outcomes(done)).toEqual([
      ['search', 'success'],
      ['publish', 'success'],
      ['fetch_page', 'denied'],
    ]);
    expect(done.toolCalls[2]?.message).toContain('2 tool calls were already made');
  });
});

describe('CallBudgetPolicy and a pause for approval', () => {
  it('counts each call of a paused turn once: probed while pausing, counted when it runs', async () => {
    // Total 3: fetch_page, publish (waits), fetch_page, fetch_page. While pausing, the runtime asks the policy
    // about the later calls (probing); on resume the first three run and the fourth is over the budget.
    const policy = new CallBudgetPolicy({ total: 3 });
    const session = new Session();
    const { runtime, evaluate } = createTestRuntime({
      script: [
        {
          toolCalls: [
            { callId: 'p1', name: 'fetch_page' },
            { callId: 'p2', name: 'publish' },
            { callId: 'p3', name: 'fetch_page' },
            { callId: 'p4', name: 'fetch_page' },
          ],
        },
      ],
    });
    const paused = await evaluate(researchPrompt(policy), { session });
    if (paused.status !== 'interrupted') throw new Error('expected the evaluation to pause');
    const done = await runtime.resume(
      researchPrompt(policy),
      paused.interruption.state,
      [{ callId: 'p2', approved: true }],
      { session, adapter: new ScriptedAdapter([{ text: 'Published.' }]) },
    );
    expect(outcomes(done)).toEqual([
      ['fetch_page', 'success'],
      ['publish', 'success'],
      ['fetch_page', 'success'],
      ['fetch_page', 'denied'],
    ]);
  });
});

describe('CallBudgetPolicy options', () => {
  const invalid: [string, unknown, RegExp][] = [
    ['no options', undefined, /CallBudgetPolicy options: expected an object/],
    ['no limit', {}, /no limit is given/],
    ['an empty perTool', { perTool: {} }, /no limit is given/],
    ['a zero total', { total: 0 }, /CallBudgetPolicy\.total: must be a positive integer, got 0/],
    ['a fractional limit', { perTool: { search: 2.5 } }, /perTool\.search: .* got 2\.5/],
    ['a negative limit', { perTool: { search: -1 } }, /got -1/],
    ['a limit that is text', { total: '20' }, /got a string/],
    ['an infinite total', { total: Infinity }, /got Infinity/],
    ['perTool as an array', { perTool: [['search', 5]] }, /perTool: must be an object/],
    ['a key that is no tool name', { perTool: { 'Web Search': 5 } }, /'Web Search' is not a tool/],
    ['an unknown option', { total: 5, perCall: 2 }, /unknown option 'perCall'/],
  ];

  it.each(invalid)('refuses %s with a ConfigurationError', (_case, options, problem) => {
    const error = catchError(
      ConfigurationError,
      () => new CallBudgetPolicy(options as CallBudgetPolicyOptions),
    );
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/ Fix: .+/);
  });

  it.each([{ total: 1 }, { perTool: { search: 5 } }, { perTool: { search: 5 }, total: 20 }])(
    'accepts %p',
    (options) => {
      expect(new CallBudgetPolicy(options).name).toBe('call_budget');
    },
  );
});
