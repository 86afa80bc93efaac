/**
 * Standard Schema params (issue 33), with zod 4:
 * - dispatch of one call of a trivial tool whose params are a zod schema,
 *   JSON arguments to the text the model reads, against the OpenAI Agents
 *   SDK's `invokeFunctionTool` on the same schema object (goal ≤ ×0.8), with
 *   the same tool on a class-validator params class beside it;
 * - validation through the Standard Schema path (`ToolParams.parse`, JSON
 *   text to the validated value) against calling zod directly on the decoded
 *   JSON (goal ≤ ×1.1), and the `openai-strict` parse (strict nulls stripped)
 *   as a diagnostic;
 * - cold start with 500 zod tools beside 500 class-validator tools: each
 *   sample in a fresh process (declare the tools, build the prompt, prepare
 *   the container, render once), the two kinds alternating.
 *
 * The executor and scope are internal, so everything is imported from src/.
 */
import 'reflect-metadata';

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { invokeFunctionTool, RunContext, tool } from '@openai/agents-core';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Container } from 'inversify';
import { z } from 'zod';

import {
  AffordanceRuntime,
  installAffordance,
  MarkdownSection,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolResult,
} from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import type { EvaluationScope } from '../../src/runtime/scope/evaluation-scope.js';
import { ToolExecutor } from '../../src/runtime/tool-executor.js';
import { directScope } from '../support/direct-scope.js';
import { compare, formatNs } from './measure.js';

const echoSchema = z.object({ text: z.string(), count: z.number().int().min(1).max(10) });

class EchoParams {
  @IsString() text!: string;
  @IsInt() @Min(1) @Max(10) count!: number;
}

const argumentsJson = '{"text":"hi","count":3}';

async function dispatch(): Promise<void> {
  const echo = (params: { text: string; count: number }): ToolResult<string> =>
    ToolResult.ok(params.text.repeat(params.count), 'Echoed.');
  const section = new MarkdownSection({
    key: 'echo',
    title: 'Echo',
    tools: [
      new ToolDefinition({
        name: 'echo_zod',
        description: 'Repeat text.',
        params: echoSchema,
        handler: echo,
      }),
      new ToolDefinition({
        name: 'echo_class',
        description: 'Repeat text.',
        params: EchoParams,
        handler: echo,
      }),
    ],
  });
  const container = new Container();
  const runtime = new AffordanceRuntime(container);
  const prompt = new Prompt({ ns: 'bench', key: 'echo', sections: [section] });
  runtime.prepare(prompt);
  const rendered = prompt.render();
  let session = new Session();
  const adapter = new ScriptedAdapter([]);
  const scope = (): EvaluationScope =>
    directScope({ container, runtime, prompt, rendered, session, adapter, evaluationId: 'bench' });
  let evaluation = scope();
  const executor = new ToolExecutor({ readOnlyConcurrency: 1, clock: runtime.clock });
  let calls = 0;
  const affordance = (name: string) => async (): Promise<void> => {
    calls += 1;
    // A fresh session every 1,000 calls, as tool-dispatch.bench.ts does, so memory stays flat.
    if (calls % 1_000 === 0) {
      session = new Session();
      evaluation = scope();
    }
    const {
      outcomes: [outcome],
    } = await executor.execute(evaluation, [{ callId: 'c', name, arguments: argumentsJson }]);
    if (outcome?.message !== 'Echoed.\n\nhihihi') {
      throw new Error(`unexpected message ${String(outcome?.message)}`);
    }
  };

  const agentsTool = tool({
    name: 'echo',
    description: 'Repeat text.',
    parameters: echoSchema,
    execute: ({ text, count }) => text.repeat(count),
  });
  const runContext = new RunContext();
  const agents = '@openai/agents-core invokeFunctionTool (zod)';
  await compare(
    'Dispatch of one call with zod params, JSON arguments to model text (same schema object)',
    [
      {
        name: agents,
        run: async () => {
          const result = await invokeFunctionTool({
            tool: agentsTool,
            runContext,
            input: argumentsJson,
          });
          if (result !== 'hihihi') throw new Error(`unexpected result ${JSON.stringify(result)}`);
        },
      },
      {
        name: 'affordance, ToolDefinition with zod params',
        run: affordance('echo_zod'),
        goal: 0.8,
      },
      {
        name: 'affordance, ToolDefinition with a class-validator class',
        run: affordance('echo_class'),
      },
    ],
    { baseline: agents, batch: 1_000, rounds: 40 },
  );
}

async function validation(): Promise<void> {
  const definition = new ToolDefinition({
    name: 'echo',
    description: 'Repeat text.',
    params: echoSchema,
    handler: () => ToolResult.ok(null),
  });
  const params = definition.params;
  if (params === undefined) throw new Error('no params');
  const strictJson = '{"text":"hi","count":3}';
  const check = (value: unknown): void => {
    const { text, count } = value as { text: string; count: number };
    if (text !== 'hi' || count !== 3) throw new Error('unexpected value');
  };
  const zod = 'zod 4 schema.parse(JSON.parse(text))';
  await compare(
    'Validation of one call with zod params, JSON text to the validated value',
    [
      {
        name: zod,
        run: () => {
          check(echoSchema.parse(JSON.parse(argumentsJson)));
        },
      },
      {
        name: "zod 4 ['~standard'].validate(JSON.parse(text))",
        run: () => {
          const result = echoSchema['~standard'].validate(JSON.parse(argumentsJson));
          if (result instanceof Promise || result.issues !== undefined) throw new Error('invalid');
          check(result.value);
        },
      },
      {
        name: "affordance ToolParams.parse (Standard Schema path, 'standard')",
        run: () => {
          check(params.parse(argumentsJson, 'standard'));
        },
        goal: 1.1,
      },
      {
        name: "affordance ToolParams.parse ('openai-strict', nulls stripped)",
        run: () => {
          check(params.parse(strictJson, 'openai-strict'));
        },
      },
    ],
    { baseline: zod, batch: 5_000, rounds: 30 },
  );
}

const sections = 100;
const toolsPerSection = 5;

/** 100 `@Section` classes of 5 `@Tool` methods, each with its own zod schema or params class. */
function declareSections(kind: 'zod' | 'class'): (abstract new (...args: never[]) => unknown)[] {
  const classes: (abstract new (...args: never[]) => unknown)[] = [];
  for (let s = 0; s < sections; s++) {
    const cls = class {};
    for (let t = 0; t < toolsPerSection; t++) {
      const method = `tool${t}`;
      Object.defineProperty(cls.prototype, method, {
        value: (p: { query: string }, _context: ToolContext) => ToolResult.ok(p.query),
        writable: true,
        configurable: true,
      });
      let params: object;
      if (kind === 'zod') {
        params = z.object({
          query: z.string().max(200),
          limit: z.number().int().min(1).max(100),
          note: z.string().optional(),
        });
        Reflect.defineMetadata('design:paramtypes', [Object, Object], cls.prototype, method);
      } else {
        const paramsClass = class {
          query = '';
          limit = 1;
          note?: string;
        };
        IsString()(paramsClass.prototype, 'query');
        MaxLength(200)(paramsClass.prototype, 'query');
        IsInt()(paramsClass.prototype, 'limit');
        Min(1)(paramsClass.prototype, 'limit');
        Max(100)(paramsClass.prototype, 'limit');
        IsOptional()(paramsClass.prototype, 'note');
        IsString()(paramsClass.prototype, 'note');
        params = paramsClass;
        Reflect.defineMetadata('design:paramtypes', [paramsClass, Object], cls.prototype, method);
      }
      Tool({
        name: `s${s}_t${t}`,
        description: `Tool ${t} of section ${s}.`,
        params: params as typeof EchoParams,
      })(
        cls.prototype,
        method,
        Object.getOwnPropertyDescriptor(cls.prototype, method) as PropertyDescriptor,
      );
    }
    Section({ key: `section-${s}`, title: `Section ${s}`, template: `Section ${s}.` })(cls);
    classes.push(cls);
  }
  return classes;
}

/** One cold-start sample in this (fresh) process: milliseconds to declare, and to build + prepare + render. */
function coldSample(kind: 'zod' | 'class'): [number, number] {
  const start = process.hrtime.bigint();
  const classes = declareSections(kind);
  const declared = process.hrtime.bigint();
  const runtime = installAffordance(new Container());
  const prompt = new Prompt({ ns: 'bench', key: 'cold', sections: classes });
  runtime.prepare(prompt);
  const first = prompt.render();
  const done = process.hrtime.bigint();
  if (first.tools.length !== sections * toolsPerSection) throw new Error('tools missing');
  // Every tool's schema is written on the first render: check one of the last.
  const spec = first.tools.at(-1)?.params?.jsonSchema('standard').schema;
  if (spec?.['type'] !== 'object') throw new Error('schema missing');
  return [Number(declared - start) / 1e6, Number(done - declared) / 1e6];
}

function coldStart(): void {
  const samples = 7;
  const results = { zod: [] as [number, number][], class: [] as [number, number][] };
  const self = fileURLToPath(import.meta.url);
  for (let sample = 0; sample < samples; sample++) {
    for (const kind of sample % 2 === 0
      ? (['zod', 'class'] as const)
      : (['class', 'zod'] as const)) {
      const output = execFileSync(process.execPath, [self], {
        encoding: 'utf8',
        env: { ...process.env, AFFORDANCE_COLD_SAMPLE: kind },
      });
      results[kind].push(JSON.parse(output) as [number, number]);
    }
  }
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log(
    `\nCold start, ${sections * toolsPerSection} tools in ${sections} @Section classes, each sample a fresh process (median of ${samples})`,
  );
  const rows: [string, [number, number][]][] = [
    ['class-validator params classes', results.class],
    ['zod 4 schemas', results.zod],
  ];
  const base = median(results.class.map(([a, b]) => a + b));
  for (const [name, values] of rows) {
    const declare = median(values.map(([a]) => a));
    const build = median(values.map(([, b]) => b));
    const total = median(values.map(([a, b]) => a + b));
    console.log(
      `  ${name.padEnd(32)} declare ${formatNs(declare * 1e6).padStart(9)}  build + prepare + first render ${formatNs(build * 1e6).padStart(9)}  total ${formatNs(total * 1e6).padStart(9)}  ×${(total / base).toFixed(2)}`,
    );
  }
}

const sampleKind = process.env['AFFORDANCE_COLD_SAMPLE'];
if (sampleKind === 'zod' || sampleKind === 'class') {
  console.log(JSON.stringify(coldSample(sampleKind)));
}

export default async function run(): Promise<void> {
  await dispatch();
  await validation();
  coldStart();
}
