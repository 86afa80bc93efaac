/**
 * Cost of one evaluation with one tool call (`runtime.evaluate` on a scripted
 * adapter) by what the tool's `@Section` class injects through its
 * constructor, interleaved:
 * - nothing (built with `new` alone): the baseline;
 * - an application service (a singleton that reaches no evaluation or call
 *   value): resolved in the application's container, goal ≤ ×1.25;
 * - the evaluation's `Session`: resolved in the evaluation's child container,
 *   built for the evaluation (inversify links each child's plan cache to its
 *   parent's, most of this row's cost);
 * - the same service, the section class bound by the application itself: its
 *   binding is resolved in that child container too.
 */
import 'reflect-metadata';

import { Container, injectable } from 'inversify';

import {
  installAffordance,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter } from 'affordance/testing';

import { compare } from './measure.js';

@injectable()
class Clock {
  now(): number {
    return 1;
  }
}

@Section({ key: 'none', title: 'None', template: 'Injects nothing.' })
class InjectsNothing {
  @Tool({ name: 'none', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(1);
  }
}

@Section({ key: 'service', title: 'Service', template: 'Injects a service.' })
class InjectsService {
  constructor(private readonly clock: Clock) {}

  @Tool({ name: 'service', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(this.clock.now());
  }
}

@Section({ key: 'session', title: 'Session', template: 'Injects the session.' })
class InjectsSession {
  constructor(private readonly session: Session) {}

  @Tool({ name: 'session', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(this.session.version);
  }
}

@Section({ key: 'bound', title: 'Bound', template: 'Bound by the application.' })
class BoundByApplication {
  constructor(private readonly clock: Clock) {}

  @Tool({ name: 'bound', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(this.clock.now());
  }
}

export default async function run(): Promise<void> {
  const container = new Container();
  container.bind(Clock).toSelf().inSingletonScope();
  container.bind(BoundByApplication).toSelf();
  const runtime = installAffordance(container);
  const evaluation = (name: string, section: new (...args: never[]) => object) => {
    const prompt = new Prompt({ ns: 'bench', key: name, sections: [section] });
    const script = [{ toolCalls: [{ name }] }, { text: 'Done.' }];
    return async (): Promise<void> => {
      const response = await runtime.evaluate(prompt, { adapter: new ScriptedAdapter(script) });
      if (response.toolCalls[0]?.result.success !== true) throw new Error(`${name} failed`);
    };
  };
  const nothing = 'injects nothing';
  await compare(
    'One evaluation with one tool call, by what its section injects',
    [
      { name: nothing, run: evaluation('none', InjectsNothing) },
      {
        name: 'injects an application service',
        run: evaluation('service', InjectsService),
        goal: 1.25,
      },
      { name: 'injects the Session', run: evaluation('session', InjectsSession) },
      {
        name: 'bound by the application, injects the service',
        run: evaluation('bound', BoundByApplication),
      },
    ],
    { baseline: nothing, batch: 200, rounds: 15 },
  );
}
