import { IsBoolean, IsOptional } from 'class-validator';

import {
  ConfigurationError,
  MarkdownSection,
  type PolicyRef,
  Prompt,
  SequentialDependencyPolicy,
  type SequentialDependencyPolicyOptions,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';
import { catchError } from '../support/catch-error.js';

class StepParams {
  @IsOptional() @IsBoolean() fail?: boolean;
}

/** The steps whose handlers ran, in order. */
const ran: string[] = [];

/** A state-changing release step; `{ fail: true }` makes it fail. */
function step(name: string): ToolDefinition<StepParams> {
  return new ToolDefinition({
    name,
    description: `Run the ${name} step.`,
    params: StepParams,
    handler: (params) => {
      ran.push(name);
      return params.fail === true
        ? ToolResult.error(`${name} failed.`)
        : ToolResult.ok(null, `${name} done.`);
    },
  });
}

function releasePrompt(policies: PolicyRef[]): Prompt {
  return new Prompt({
    ns: 'tests',
    key: 'release',
    policies,
    sections: [
      new MarkdownSection({
        key: 'release',
        title: 'Release',
        template: 'Release the service.',
        tools: ['build', 'test', 'deploy', 'lint'].map(step),
      }),
    ],
  });
}

const policy = (): SequentialDependencyPolicy =>
  new SequentialDependencyPolicy({ requires: { deploy: ['build', 'test'] } });

/** One turn per call: `'build'`, or `['build', { fail: true }]`. */
function turns(...calls: (string | [string, object])[]): ScriptedTurn[] {
  return [
    ...calls.map((call, index): ScriptedTurn => {
      const [name, args] = typeof call === 'string' ? [call, {}] : call;
      return { toolCalls: [{ callId: `c${index}`, name, arguments: args }] };
    }),
    { text: 'Done.' },
  ];
}

beforeEach(() => {
  ran.length = 0;
});

describe('SequentialDependencyPolicy through the runtime', () => {
  it('denies deploy before its dependencies, naming the missing tools', async () => {
    const { adapter, evaluate } = createTestRuntime({ script: turns('deploy') });
    const session = new Session();
    const response = await evaluate(releasePrompt([policy()]), { session });

    const expected =
      "Policy 'sequential_dependency' denied this call of 'deploy': 'deploy' may run only after 'build' and 'test' have each succeeded in this session, and no successful call of 'build' or 'test' is recorded. To proceed: Call 'build' and 'test' first, then call 'deploy' again once they succeed.";
    expect(response.toolCalls[0]?.message).toBe(expected);
    expect(toolMessages(adapter.requests[1])).toEqual([['c0', expected]]);
    expect(
      session.view
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['denied']);
    expect(ran).toEqual([]);
  });

  it('names only the dependency still missing', async () => {
    const { evaluate } = createTestRuntime({ script: turns('build', 'deploy') });
    const response = await evaluate(releasePrompt([policy()]));

    expect(response.toolCalls[1]?.message).toBe(
      "Policy 'sequential_dependency' denied this call of 'deploy': 'deploy' may run only after 'build' and 'test' have each succeeded in this session, and no successful call of 'test' is recorded. To proceed: Call 'test' first, then call 'deploy' again once it succeeds.",
    );
    expect(ran).toEqual(['build']);
  });

  it('allows deploy once build and test succeeded, in any order', async () => {
    const { evaluate } = createTestRuntime({ script: turns('test', 'build', 'deploy') });
    const response = await evaluate(releasePrompt([policy()]));

    expect(response.toolCalls.map((call) => call.event.outcome)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(ran).toEqual(['test', 'build', 'deploy']);
  });

  it('does not count a failed or denied call of a dependency', async () => {
    const { evaluate } = createTestRuntime({
      script: turns(['build', { fail: true }], 'test', 'deploy', 'build', 'deploy'),
    });
    const response = await evaluate(
      releasePrompt([
        policy(),
        // 'test' is denied by this second policy: a denied call must not satisfy deploy.
        new SequentialDependencyPolicy({ requires: { test: ['lint'] } }),
      ]),
    );

    expect(response.toolCalls.map((call) => [call.call.name, call.event.outcome])).toEqual([
      ['build', 'failure'],
      ['test', 'denied'],
      ['deploy', 'denied'],
      ['build', 'success'],
      ['deploy', 'denied'],
    ]);
    expect(response.toolCalls[2]?.message).toContain("no successful call of 'build' or 'test'");
    expect(response.toolCalls[4]?.message).toContain("no successful call of 'test' is recorded");
    expect(ran).toEqual(['build', 'build']);
  });

  it('allows tools it does not list', async () => {
    const { evaluate } = createTestRuntime({ script: turns('lint', 'build') });
    const response = await evaluate(releasePrompt([policy()]));

    expect(response.toolCalls.map((call) => call.event.outcome)).toEqual(['success', 'success']);
  });

  it('counts successes of earlier evaluations on the same session, not of other sessions', async () => {
    const session = new Session();
    const first = createTestRuntime({ script: turns('build', 'test') });
    const earlier = await first.evaluate(releasePrompt([policy()]), { session });

    const second = createTestRuntime({ script: turns('deploy') });
    const same = await second.evaluate(releasePrompt([policy()]), { session });
    expect(same.evaluationId).not.toBe(earlier.evaluationId);
    expect(same.toolCalls[0]?.event.outcome).toBe('success');

    const elsewhere = createTestRuntime({ script: turns('deploy') });
    const fresh = await elsewhere.evaluate(releasePrompt([policy()]), { session: new Session() });
    expect(fresh.toolCalls[0]?.event.outcome).toBe('denied');
    expect(ran).toEqual(['build', 'test', 'deploy']);
  });
});

describe('SequentialDependencyPolicy options', () => {
  const invalid: [string, unknown, RegExp][] = [
    ['no options', undefined, /expected an object with requires, got undefined/],
    ['requires missing', {}, /requires must be an object of tool names, got undefined/],
    ['requires an array', { requires: [['deploy', 'build']] }, /got an array/],
    ['no tool listed', { requires: {} }, /lists no tool/],
    ['an empty list', { requires: { deploy: [] } }, /requires\.deploy: must be a non-empty array/],
    ['a list that is a string', { requires: { deploy: 'build' } }, /got a string/],
    ['a key that is no tool name', { requires: { 'Deploy!': ['build'] } }, /'Deploy!'/],
    ['an entry that is no tool name', { requires: { deploy: ['build', 7] } }, /a number/],
    ['an unknown option', { requires: { deploy: ['build'] }, strict: true }, /'strict'/],
    ['a tool requiring itself', { requires: { deploy: ['deploy'] } }, /'deploy' requires 'deploy'/],
    [
      'a cycle through other tools',
      { requires: { deploy: ['test'], test: ['build'], build: ['deploy'] } },
      /'deploy' requires 'test' requires 'build' requires 'deploy'/,
    ],
  ];

  it.each(invalid)('refuses %s with a ConfigurationError', (_case, options, problem) => {
    const error = catchError(
      ConfigurationError,
      () => new SequentialDependencyPolicy(options as SequentialDependencyPolicyOptions),
    );
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/^SequentialDependencyPolicy[\w. ]*: .+ Fix: .+/);
  });

  it('accepts a chain of dependencies', () => {
    expect(
      () =>
        new SequentialDependencyPolicy({
          requires: { deploy: ['test', 'build'], test: ['build'] },
        }),
    ).not.toThrow();
  });
});
