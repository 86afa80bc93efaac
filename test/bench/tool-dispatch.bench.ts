/**
 * Per-call cost of dispatching one call of a trivial tool (echo two fields),
 * from the model's JSON arguments to the text the model reads back:
 * - affordance: lookup, parse + validate (class-validator), call scope (child
 *   container), frozen ToolContext, session + resource snapshot, handler,
 *   rendering, `ToolInvoked` into the session, scope disposal; for a plain
 *   handler, a plain handler declared `synchronous`, and `@Tool` methods
 *   (declared to return a `ToolResult`, so synchronous too);
 * - the OpenAI Agents SDK (`@openai/agents-core`): `invokeFunctionTool` on a
 *   `tool()` with a zod schema (parse, validate, execute, stringify);
 * - a bare function call on `JSON.parse`d arguments, no validation;
 * - the plain tool behind one policy that allows every call (the policy gate's
 *   cost; its goal, ×1.25 of the plain tool, is this project's own bar);
 * - then the same tool answering a small record instead of a string, as most
 *   real tools do (affordance copies, renders and freezes it; the SDK's result
 *   is stringified as it would be for the model);
 * - then the first calls again with the caches cold before each (a diagnostic
 *   without goals: a loop's HTTP client evicts them between turns).
 *
 * The executor and scope are internal, so everything is imported from src/.
 */
import 'reflect-metadata';

import { invokeFunctionTool, RunContext, tool } from '@openai/agents-core';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Container, inject } from 'inversify';
import { z } from 'zod';

import {
  AffordanceRuntime,
  MarkdownSection,
  PolicyDecision,
  Prompt,
  Section,
  Session,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolResult,
} from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

import type { EvaluationScope } from '../../src/runtime/scope/evaluation-scope.js';
import { ToolExecutor } from '../../src/runtime/tool-executor.js';
import { directScope } from '../support/direct-scope.js';
import { allocatedPerOp, compare, type Contender } from './measure.js';

class EchoParams {
  @IsString() text!: string;
  @IsInt() @Min(1) @Max(10) count!: number;
}

@Section({ key: 'echo', title: 'Echo', template: 'Echo text back.' })
class EchoSection {
  @Tool({ name: 'echo', description: 'Repeat text.' })
  echo(params: EchoParams, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(params.text.repeat(params.count), 'Echoed.');
  }
}

@Section({ key: 'echo-context', title: 'Echo with context' })
class EchoWithContextSection {
  constructor(@inject(ToolContext) private readonly context: ToolContext) {}

  @Tool({ name: 'echo_context', description: 'Repeat text.' })
  echo(params: EchoParams, _context: ToolContext): ToolResult<string> {
    if (this.context.callId !== 'c') throw new Error('wrong call');
    return ToolResult.ok(params.text.repeat(params.count), 'Echoed.');
  }
}

/** What the object-returning tools answer: a small record, as most real tools return. */
interface Echoed {
  readonly text: string;
  readonly count: number;
  readonly truncated: boolean;
}
const echoed = (params: { text: string; count: number }): Echoed => ({
  text: params.text.repeat(params.count),
  count: params.count,
  truncated: false,
});

@Section({ key: 'echo-object', title: 'Echo as a record' })
class EchoObjectSection {
  @Tool({ name: 'echo_object', description: 'Repeat text, as a record.' })
  echo(params: EchoParams, _context: ToolContext): ToolResult<Echoed> {
    return ToolResult.ok(echoed(params), 'Echoed.');
  }
}

const plainSection = new MarkdownSection({
  key: 'plain',
  title: 'Plain',
  tools: [
    new ToolDefinition({
      name: 'echo_plain',
      description: 'Repeat text.',
      params: EchoParams,
      handler: (params: EchoParams) => ToolResult.ok(params.text.repeat(params.count), 'Echoed.'),
    }),
    // The same tool declared synchronous: its calls skip tracking async context.
    new ToolDefinition({
      name: 'echo_sync',
      description: 'Repeat text.',
      params: EchoParams,
      synchronous: true,
      handler: (params: EchoParams) => ToolResult.ok(params.text.repeat(params.count), 'Echoed.'),
    }),
    // The same tool answering a record instead of a string: copied, rendered as JSON and frozen.
    new ToolDefinition({
      name: 'echo_object_plain',
      description: 'Repeat text, as a record.',
      params: EchoParams,
      handler: (params: EchoParams) => ToolResult.ok(echoed(params), 'Echoed.'),
    }),
    // The same tool behind one policy that allows every call: the cost of the policy gate.
    new ToolDefinition({
      name: 'echo_policy',
      description: 'Repeat text.',
      params: EchoParams,
      policies: [{ name: 'allow_all', check: () => PolicyDecision.allow() }],
      handler: (params: EchoParams) => ToolResult.ok(params.text.repeat(params.count), 'Echoed.'),
    }),
  ],
});

const argumentsJson = '{"text":"hi","count":3}';

export default async function run(): Promise<void> {
  const container = new Container();
  const runtime = new AffordanceRuntime(container);
  const prompt = new Prompt({
    ns: 'bench',
    key: 'echo',
    sections: [EchoSection, EchoWithContextSection, EchoObjectSection, plainSection],
  });
  runtime.prepare(prompt);
  const rendered = prompt.render();
  // The session keeps every ToolInvoked: a fresh one every 1,000 calls (a long conversation's
  // worth), so memory stays flat and the events kept do not load the other contenders' rounds
  // with old-generation collections (with 10,000 the peer's median was up to 1.7 times its fastest round).
  let session = new Session();
  const adapter = new ScriptedAdapter([]);
  const scope = (): EvaluationScope =>
    directScope({ container, runtime, prompt, rendered, session, adapter, evaluationId: 'bench' });
  let evaluation = scope();
  const executor = new ToolExecutor({ readOnlyConcurrency: 1, clock: runtime.clock });
  let calls = 0;
  const affordanceDispatch =
    (name: string, expected = 'Echoed.\n\nhihihi') =>
    async (): Promise<void> => {
      calls += 1;
      if (calls % 1_000 === 0) {
        session = new Session();
        evaluation = scope();
      }
      const {
        outcomes: [outcome],
      } = await executor.execute(evaluation, [{ callId: 'c', name, arguments: argumentsJson }]);
      if (outcome?.message !== expected)
        throw new Error(`unexpected message ${String(outcome?.message)}`);
    };

  const agentsTool = tool({
    name: 'echo',
    description: 'Repeat text.',
    parameters: z.object({ text: z.string(), count: z.number().int().min(1).max(10) }),
    execute: ({ text, count }) => text.repeat(count),
  });
  const runContext = new RunContext();
  const agentsDispatch = async (): Promise<void> => {
    const result = await invokeFunctionTool({ tool: agentsTool, runContext, input: argumentsJson });
    if (result !== 'hihihi') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };

  const agentsObjectTool = tool({
    name: 'echo_object',
    description: 'Repeat text, as a record.',
    parameters: z.object({ text: z.string(), count: z.number().int().min(1).max(10) }),
    execute: (params) => echoed(params),
  });
  const objectText = JSON.stringify(echoed({ text: 'hi', count: 3 }));
  // The SDK hands a result that is not a string to the model as its JSON text.
  const agentsObjectDispatch = async (): Promise<void> => {
    const result = await invokeFunctionTool({
      tool: agentsObjectTool,
      runContext,
      input: argumentsJson,
    });
    if (JSON.stringify(result) !== objectText) throw new Error('unexpected result');
  };
  const bareObjectCall = (): Promise<void> => {
    const result = echoed(JSON.parse(argumentsJson) as { text: string; count: number });
    if (JSON.stringify(result) !== objectText) throw new Error('unexpected');
    return Promise.resolve();
  };

  const echo = (params: { text: string; count: number }): string =>
    params.text.repeat(params.count);
  const bareCall = (): Promise<void> => {
    const result = echo(JSON.parse(argumentsJson) as { text: string; count: number });
    if (result !== 'hihihi') throw new Error('unexpected');
    return Promise.resolve();
  };

  const contenders = (suffix: string): Contender[] => [
    { name: `bare function call (JSON.parse, no validation)${suffix}`, run: bareCall },
    { name: `@openai/agents-core invokeFunctionTool (zod)${suffix}`, run: agentsDispatch },
    {
      name: `affordance, plain ToolDefinition handler${suffix}`,
      run: affordanceDispatch('echo_plain'),
      goal: 0.8,
    },
    {
      name: `affordance, plain handler declared synchronous${suffix}`,
      run: affordanceDispatch('echo_sync'),
      goal: 0.8,
    },
    {
      name: `affordance, @Tool on a @Section${suffix}`,
      run: affordanceDispatch('echo'),
      goal: 0.8,
    },
    {
      name: `affordance, @Section injecting ToolContext (call container)${suffix}`,
      run: affordanceDispatch('echo_context'),
      goal: 1.5,
      goalAgainst: `affordance, plain ToolDefinition handler${suffix}`,
    },
    {
      name: `affordance, plain handler behind one allowing policy${suffix}`,
      run: affordanceDispatch('echo_policy'),
      goal: 1.25,
      goalAgainst: `affordance, plain ToolDefinition handler${suffix}`,
    },
  ];
  const agents = '@openai/agents-core invokeFunctionTool (zod)';
  const few = await compare(
    'Dispatch of one trivial tool call, JSON arguments to model text',
    contenders(''),
    { baseline: agents, batch: 1_000, rounds: 40 },
  );

  const objectMessage = `Echoed.\n\n${objectText}`;
  const agentsObject = '@openai/agents-core invokeFunctionTool (zod), a record';
  await compare(
    'Dispatch of one tool call answering a record ({ text, count, truncated }), JSON arguments to model text',
    [
      { name: 'bare function call (JSON.parse, no validation), a record', run: bareObjectCall },
      { name: agentsObject, run: agentsObjectDispatch },
      {
        name: 'affordance, plain ToolDefinition handler, a record',
        run: affordanceDispatch('echo_object_plain', objectMessage),
        goal: 0.8,
      },
      {
        name: 'affordance, @Tool on a @Section, a record',
        run: affordanceDispatch('echo_object', objectMessage),
        goal: 0.8,
      },
    ],
    { baseline: agentsObject, batch: 1_000, rounds: 40 },
  );

  // The same calls with the caches cold before each, as in a loop where the HTTP client runs between
  // turns: a diagnostic without goals (the goals above are for calls back to back).
  await compare(
    'Dispatch of one trivial tool call, each after walking 20,000 unrelated objects (caches cold)',
    contenders('')
      .filter((contender) => !contender.name.includes('policy'))
      .map(({ name, run }) => ({ name, run })),
    { baseline: agents, batch: 500, rounds: 10, warmup: 1_000, coldCaches: true },
  );

  console.log('\nAllocated per call (V8 GC profiler over 20,000 calls)');
  for (const [name, op] of [
    [agents, agentsDispatch],
    ['affordance, plain ToolDefinition handler', affordanceDispatch('echo_plain')],
    ['affordance, @Tool on a @Section', affordanceDispatch('echo')],
  ] as const) {
    const bytes = await allocatedPerOp(op, 20_000);
    console.log(`  ${name.padEnd(44)}  ${(bytes / 1024).toFixed(1).padStart(6)} KB`);
  }

  // class-validator keeps every validated class of the process in one store: declare 1,000 more
  // params classes (as a large application would) and measure again.
  declareParamsClasses(1_000);
  const many = await compare(
    'The same, with 1,000 more params classes declared in the process',
    contenders(' [1,000 classes]'),
    { baseline: `${agents} [1,000 classes]`, batch: 1_000, rounds: 40 },
  );
  const plainFew = few.find((row) => row.name === 'affordance, plain ToolDefinition handler');
  const plainMany = many.find((row) => row.name.startsWith('affordance, plain ToolDefinition'));
  if (plainFew !== undefined && plainMany !== undefined) {
    const growth = plainMany.medianNs / plainFew.medianNs;
    console.log(
      `  plain tool with 1,000 more classes / without: ×${growth.toFixed(2)} (goal: flat, ≤ ×1.10: ${growth <= 1.1 ? 'met' : 'not met'})`,
    );
  }
}

/** Declares `count` params classes with class-validator constraints, as an application with that many tools has. */
function declareParamsClasses(count: number): void {
  for (let index = 0; index < count; index++) {
    const cls = class {
      query = '';
      limit = 0;
    };
    IsString()(cls.prototype, 'query');
    MaxLength(200)(cls.prototype, 'query');
    IsInt()(cls.prototype, 'limit');
    Min(1)(cls.prototype, 'limit');
  }
}
