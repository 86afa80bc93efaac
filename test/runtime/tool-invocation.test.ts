import { createHook } from 'node:async_hooks';

import {
  IsInt,
  IsString,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Container, injectable } from 'inversify';

import {
  AffordanceRuntime,
  MarkdownSection,
  PolicyDecision,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { ManualClock, ScriptedAdapter } from 'affordance/testing';

import { acquireSessionLock } from '../../src/runtime/acquire-session-lock.js';
import type { HeldCall, Invocation } from '../../src/runtime/call-ending.js';
import type { EvaluationScope } from '../../src/runtime/scope/evaluation-scope.js';
import { invokeToolCall } from '../../src/runtime/tool-invocation.js';
import { ToolExecutor } from '../../src/runtime/tool-executor.js';
import { directScope } from '../support/direct-scope.js';

/*
 * A call whose steps all finish at once (valid arguments checked by the
 * compiled path, a free lock, a handler that returns a result, a scope with
 * nothing to close) must end without making a single promise: that is most of
 * what a tool call costs beyond its own work. Each step that may wait hands
 * over to a promise only when it does, and the call then ends the same way.
 */

class EchoParams {
  @IsString() text!: string;
  @IsInt() count!: number;
}

@ValidatorConstraint({ name: 'slowlyChecked', async: true })
class SlowlyChecked implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await Promise.resolve();
    return typeof value === 'string';
  }
}

/** Arguments only class-validator can check (an async constraint): decoding waits. */
class SlowParams {
  @Validate(SlowlyChecked) text!: string;
}

/** A STATE slice the failing tool writes before it fails. */
class Noted {
  constructor(readonly text: string) {}
}

@injectable()
class Greeter {
  greet(text: string): string {
    return `hello ${text}`;
  }
}

const echo = (params: EchoParams): ToolResult<string> =>
  ToolResult.ok(params.text.repeat(params.count), 'Echoed.');

const tools = [
  new ToolDefinition({ name: 'plain', description: 'Echo.', params: EchoParams, handler: echo }),
  new ToolDefinition({
    name: 'declared',
    description: 'Echo.',
    params: EchoParams,
    synchronous: true,
    handler: echo,
  }),
  new ToolDefinition({
    name: 'reader',
    description: 'Echo, read-only.',
    params: EchoParams,
    readOnly: true,
    handler: echo,
  }),
  new ToolDefinition({
    name: 'allowed',
    description: 'Echo behind a policy that allows at once.',
    params: EchoParams,
    policies: [{ name: 'allow', check: () => PolicyDecision.allow() }],
    handler: echo,
  }),
  new ToolDefinition({
    name: 'failing',
    description: 'Writes a note, then fails.',
    params: EchoParams,
    handler: (params: EchoParams, context) => {
      context.session.dispatch(new Noted(params.text));
      return ToolResult.error('No.');
    },
  }),
  new ToolDefinition({
    name: 'async_handler',
    description: 'Echo, later.',
    params: EchoParams,
    handler: async (params: EchoParams) => {
      await Promise.resolve();
      return echo(params);
    },
  }),
  new ToolDefinition({
    name: 'slow_policy',
    description: 'Echo behind a policy that answers later.',
    params: EchoParams,
    policies: [
      {
        name: 'allow_later',
        check: async () => {
          await Promise.resolve();
          return PolicyDecision.allow();
        },
      },
    ],
    handler: echo,
  }),
  new ToolDefinition({
    name: 'slow_after',
    description: 'Echo; a policy notes the result later.',
    params: EchoParams,
    policies: [
      {
        name: 'note_later',
        afterResult: async () => {
          await Promise.resolve();
        },
      },
    ],
    handler: echo,
  }),
  new ToolDefinition({
    name: 'failing_after',
    description: 'Echo; a policy fails after the result, later.',
    params: EchoParams,
    policies: [
      {
        name: 'audit_later',
        afterResult: async () => {
          await Promise.resolve();
          throw new Error('the audit log is down');
        },
      },
    ],
    handler: echo,
  }),
  new ToolDefinition({
    name: 'slow_arguments',
    description: 'Echo text checked by an async constraint.',
    params: SlowParams,
    handler: (params: SlowParams) => ToolResult.ok(params.text, 'Checked.'),
  }),
  new ToolDefinition({
    name: 'with_service',
    description: 'Greets through a service: the call gets a container to close.',
    params: EchoParams,
    handler: (params: EchoParams, context) =>
      ToolResult.ok(context.services.get(Greeter).greet(params.text), 'Greeted.'),
  }),
];

function newScope(): { scope: EvaluationScope; session: Session } {
  const container = new Container();
  container.bind(Greeter).toSelf();
  const runtime = new AffordanceRuntime(container);
  const prompt = new Prompt({
    ns: 'invocation',
    key: 'steps',
    sections: [new MarkdownSection({ key: 'tools', title: 'Tools', tools })],
  });
  runtime.prepare(prompt);
  const session = new Session();
  const adapter = new ScriptedAdapter([]);
  const rendered = prompt.render();
  const parts = { container, runtime, prompt, rendered, session, adapter, evaluationId: 'steps' };
  return { scope: directScope(parts), session };
}

/** What `fn` returned, and how many promises were created while it ran. */
function countingPromises<T>(fn: () => T): { returned: T; promises: number } {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises += 1;
    },
  }).enable();
  try {
    return { returned: fn(), promises };
  } finally {
    hook.disable();
  }
}

function invoke(
  scope: EvaluationScope,
  name: string,
  args: object,
): ReturnType<typeof invokeToolCall> {
  return invokeToolCall(
    scope,
    { callId: `call-${name}`, name, arguments: JSON.stringify(args) },
    new ManualClock(),
  );
}

function completed(ended: Invocation | HeldCall): Invocation {
  if (ended.kind !== 'completed') throw new Error(`expected a completed call, got ${ended.kind}`);
  return ended;
}

describe('invokeToolCall', () => {
  it.each([
    ['plain', 'hihi'],
    ['declared', 'hihi'],
    ['reader', 'hihi'],
    ['allowed', 'hihi'],
  ])('ends a call of %s whose steps all finish at once without making a promise', (name, value) => {
    const { scope } = newScope();
    const { returned, promises } = countingPromises(() =>
      invoke(scope, name, { text: 'hi', count: 2 }),
    );
    expect(returned).not.toBeInstanceOf(Promise);
    expect(promises).toBe(0);
    const invocation = completed(returned as Invocation);
    expect([invocation.result.success, invocation.result.value]).toEqual([true, value]);
    invocation.release?.();
  });

  it('ends a failed call at once too, its writes rolled back', () => {
    const { scope, session } = newScope();
    const { returned, promises } = countingPromises(() =>
      invoke(scope, 'failing', { text: 'hi', count: 2 }),
    );
    expect(promises).toBe(0);
    const invocation = completed(returned as Invocation);
    expect([invocation.result.success, invocation.result.message]).toEqual([false, 'No.']);
    invocation.release?.();
    expect(session.slice(Noted).all()).toEqual([]);
  });

  it('words rejected arguments through class-validator, so that call waits for it', async () => {
    const { scope } = newScope();
    const returned = invoke(scope, 'plain', { text: 'hi' });
    expect(returned).toBeInstanceOf(Promise);
    expect(completed(await returned).result.message).toMatch(/^Tool validation failed: .*count/);
  });

  it.each([
    ['async_handler', { text: 'hi', count: 2 }, 'Echoed.', 'hihi'],
    ['slow_policy', { text: 'hi', count: 2 }, 'Echoed.', 'hihi'],
    ['slow_after', { text: 'hi', count: 2 }, 'Echoed.', 'hihi'],
    ['slow_arguments', { text: 'hi' }, 'Checked.', 'hi'],
    ['with_service', { text: 'you', count: 1 }, 'Greeted.', 'hello you'],
  ])(
    'hands %s over to a promise at the step that waits, and ends it the same way',
    async (name, args, message, value) => {
      const { scope } = newScope();
      const returned = invoke(scope, name, args);
      expect(returned).toBeInstanceOf(Promise);
      const invocation = completed(await returned);
      expect([invocation.result.message, invocation.result.value]).toEqual([message, value]);
      invocation.release?.();
    },
  );

  it('undoes a call whose policy fails after the result, later', async () => {
    const { scope } = newScope();
    const returned = invoke(scope, 'failing_after', { text: 'hi', count: 2 });
    expect(returned).toBeInstanceOf(Promise);
    const invocation = completed(await returned);
    expect(invocation.result.success).toBe(false);
    expect(invocation.result.message).toMatch(
      /policy 'audit_later' failed after it, so the call was undone: .*the audit log is down/,
    );
    invocation.release?.();
  });

  it('waits for a held session lock, then runs the call', async () => {
    const { scope, session } = newScope();
    const release = acquireSessionLock(session, undefined);
    if (typeof release !== 'function') throw new Error('the lock should be free');
    const returned = invoke(scope, 'plain', { text: 'hi', count: 1 });
    expect(returned).toBeInstanceOf(Promise);
    release();
    const invocation = completed(await returned);
    expect(invocation.result.value).toBe('hi');
    invocation.release?.();
  });

  it('lets ToolExecutor record a call that ended at once, as any other', async () => {
    const { scope, session } = newScope();
    const executor = new ToolExecutor({ readOnlyConcurrency: 2, clock: new ManualClock() });
    const { outcomes } = await executor.execute(scope, [
      { callId: 'a', name: 'plain', arguments: '{"text":"a","count":1}' },
      { callId: 'b', name: 'async_handler', arguments: '{"text":"b","count":1}' },
    ]);
    expect(outcomes.map((outcome) => outcome.message)).toEqual(['Echoed.\n\na', 'Echoed.\n\nb']);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => event.callId),
    ).toEqual(['a', 'b']);
  });
});

describe('ToolExecutor.execute with a lone call', () => {
  const executor = new ToolExecutor({ readOnlyConcurrency: 2, clock: new ManualClock() });
  const call = (name: string): { callId: string; name: string; arguments: string } => ({
    callId: `lone-${name}`,
    name,
    arguments: '{"text":"hi","count":1}',
  });

  it('records a state-changing call that ended at once before it returns, without a promise of its own', async () => {
    const { scope, session } = newScope();
    const { returned, promises } = countingPromises(() => executor.execute(scope, [call('plain')]));
    // The one promise is the settled answer itself.
    expect(promises).toBe(1);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => event.callId),
    ).toEqual(['lone-plain']);
    const { outcomes, paused } = await returned;
    expect([outcomes.map((outcome) => outcome.message), paused]).toEqual([
      ['Echoed.\n\nhi'],
      undefined,
    ]);
  });

  it('rejects, rather than throws, when what is told of the outcome throws', async () => {
    const { scope, session } = newScope();
    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = executor.execute(scope, [call('plain')], {
        onOutcome: () => {
          throw new Error('the stream is closed');
        },
      });
    }).not.toThrow();
    await expect(returned).rejects.toThrow('the stream is closed');
    expect(session.slice(ToolInvoked).all()).toHaveLength(1);
  });

  it('takes the asynchronous way for a read-only call and for a call that waits, with the same records', async () => {
    const { scope, session } = newScope();
    const reader = await executor.execute(scope, [call('reader')]);
    const later = await executor.execute(scope, [call('async_handler')]);
    expect([...reader.outcomes, ...later.outcomes].map((outcome) => outcome.message)).toEqual([
      'Echoed.\n\nhi',
      'Echoed.\n\nhi',
    ]);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => event.callId),
    ).toEqual(['lone-reader', 'lone-async_handler']);
  });
});
