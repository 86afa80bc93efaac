/**
 * Cost of one evaluation with one tool call (render, scoped containers, the
 * call, the answer) through `AffordanceService` in a Nest application context,
 * by who builds the tool's section:
 * - affordance's container (a section no Nest module provides);
 * - Nest, a singleton section (`moduleRef.get` per call);
 * - Nest, a request-scoped section: a new request per evaluation, so Nest
 *   builds the section and its request-scoped dependency for each one.
 */
import 'reflect-metadata';

import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory, REQUEST } from '@nestjs/core';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface.js';

import { Prompt, ProviderAdapter, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { providerCapabilities, type ProviderRequest, type ProviderTurn } from 'affordance/provider';

import { measure, printTable } from './measure.js';

/** Calls the prompt's only tool on the first turn, then answers. */
class OneCallModel extends ProviderAdapter {
  override readonly name: string = 'bench';
  override readonly capabilities = providerCapabilities();

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    const tool = request.tools[0]?.name ?? 'none';
    return Promise.resolve(
      request.turn === 0
        ? { toolCalls: [{ callId: 'c', name: tool, arguments: '{}' }] }
        : { text: 'done' },
    );
  }
}

@Injectable()
class Clock {
  now(): number {
    return 1;
  }
}

@Injectable({ scope: Scope.REQUEST })
class Caller {
  readonly name: string;
  constructor(@Inject(REQUEST) request: { name: string }) {
    this.name = request.name;
  }
}

@Section({ key: 'plain', title: 'Plain', template: 'Built by affordance.' })
class AffordanceBuiltSection {
  @Tool({ name: 'plain', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok('ok');
  }
}

@Section({ key: 'singleton', title: 'Singleton', template: 'Built by Nest once.' })
class SingletonSection {
  constructor(private readonly clock: Clock) {}

  @Tool({ name: 'singleton', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(this.clock.now());
  }
}

@Section({ key: 'per-request', title: 'Per request', template: 'Built by Nest per request.' })
class RequestSection {
  constructor(private readonly caller: Caller) {}

  @Tool({ name: 'per_request', description: 'Answer.' })
  answer(_params: undefined, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.caller.name);
  }
}

const prompts = {
  affordance: new Prompt({ ns: 'bench', key: 'plain', sections: [AffordanceBuiltSection] }),
  singleton: new Prompt({ ns: 'bench', key: 'singleton', sections: [SingletonSection] }),
  request: new Prompt({ ns: 'bench', key: 'request', sections: [RequestSection] }),
};

@Module({
  imports: [
    AffordanceModule.forRoot({
      adapter: () => new OneCallModel(),
      prompts: Object.values(prompts),
    }),
  ],
  providers: [Clock, Caller, SingletonSection, RequestSection],
})
class BenchModule {}

export default async function run(): Promise<void> {
  const app = await NestFactory.createApplicationContext(
    BenchModule,
    Object.assign(new NestApplicationContextOptions(), { logger: false as const }),
  );
  const affordance = app.get(AffordanceService);
  const evaluate = (prompt: Prompt, expected: unknown) => async (): Promise<void> => {
    const response = await affordance.evaluate(prompt, { request: { name: 'bench' } });
    if (response.toolCalls[0]?.result.value !== expected) throw new Error('unexpected result');
  };

  const rows = [
    await measure('section built by affordance', evaluate(prompts.affordance, 'ok'), {
      batch: 500,
    }),
    await measure('Nest singleton section', evaluate(prompts.singleton, 1), { batch: 500 }),
    await measure('Nest request-scoped section', evaluate(prompts.request, 'bench'), {
      batch: 500,
    }),
  ];
  printTable('One evaluation with one tool call, by who builds the section', rows);
  await app.close();
}
