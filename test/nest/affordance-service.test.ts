import { Body, Controller, HttpCode, Injectable, Module, Post, Req } from '@nestjs/common';
import { ContextIdFactory, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

import {
  ConfigurationError,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import type { ScriptedTurn } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { latch } from '../support/deferred.js';
import {
  createContext,
  listen,
  postJson,
  quietNest,
  type RunningApp,
} from '../support/nest-http.js';
import { Caller, type HttpRequest } from '../support/nest-caller.js';
import { ScriptPerEvaluation } from '../support/script-per-evaluation.js';

/** A singleton the test uses to hold every request inside its first tool call until all have arrived. */
@Injectable()
class Rendezvous {
  gate = latch(1);
}

class Seen {
  caller!: string;
  callerInstance!: number;
}

@Section({ key: 'desk', title: 'Desk', template: 'Tell the caller who they are.' })
class DeskSection {
  constructor(
    private readonly caller: Caller,
    private readonly rendezvous: Rendezvous,
  ) {}

  @Tool({ name: 'whoami', description: 'Name the caller of the current request.', result: Seen })
  async whoami(_params: undefined, _context: ToolContext): Promise<ToolResult<Seen>> {
    await this.rendezvous.gate.arrive();
    const seen = Object.assign(new Seen(), {
      caller: this.caller.name,
      callerInstance: this.caller.instance,
    });
    return ToolResult.ok(seen, `You are ${seen.caller}.`);
  }
}

/** Hands the question to a nested evaluation of the desk prompt, in the same session. */
@Section({ key: 'front', title: 'Front desk', template: 'Delegate to the desk.' })
class FrontSection {
  @Tool({ name: 'ask_desk', description: 'Ask the desk agent.', result: Seen })
  async askDesk(_params: undefined, context: ToolContext): Promise<ToolResult<Seen>> {
    const nested = await context.evaluate(deskPrompt, {
      session: context.session,
      input: 'desk: who am I?',
    });
    return ToolResult.ok(nested.toolCalls[0]?.result.value as Seen, 'The desk answered.');
  }
}

const deskPrompt = new Prompt({ ns: 'test/nest', key: 'desk', sections: [DeskSection] });
const frontPrompt = new Prompt({ ns: 'test/nest', key: 'front', sections: [FrontSection] });

/** Every desk conversation calls `whoami` twice, then answers; the front desk delegates once. */
function scriptFor(input: string): ScriptedTurn[] {
  if (input.startsWith('front:')) return [{ toolCalls: [{ name: 'ask_desk' }] }, { text: 'ok' }];
  return [{ toolCalls: [{ name: 'whoami' }] }, { toolCalls: [{ name: 'whoami' }] }, { text: 'ok' }];
}

@Controller()
class AgentController {
  constructor(private readonly affordance: AffordanceService) {}

  @Post('agent')
  @HttpCode(200)
  async run(@Req() request: HttpRequest, @Body() body: { message: string }) {
    const prompt = body.message.startsWith('front:') ? frontPrompt : deskPrompt;
    const response = await this.affordance.evaluate(prompt, { request, input: body.message });
    return { seen: response.toolCalls.map((call) => call.result.value as Seen) };
  }
}

/** Request-scoped (it injects `Caller`): the section must see the very `Caller` this controller got. */
@Controller({ path: 'checked' })
class CheckedController {
  constructor(
    private readonly affordance: AffordanceService,
    private readonly caller: Caller,
  ) {}

  @Post()
  @HttpCode(200)
  async run(@Req() request: HttpRequest) {
    const response = await this.affordance.evaluate(deskPrompt, { request, input: 'who?' });
    return {
      controllerCaller: this.caller.instance,
      seen: response.toolCalls.map((call) => call.result.value as Seen),
    };
  }
}

@Module({
  imports: [
    AffordanceModule.forRoot({
      adapter: () => new ScriptPerEvaluation(scriptFor),
      prompts: [deskPrompt, frontPrompt],
    }),
  ],
  controllers: [AgentController, CheckedController],
  providers: [Caller, Rendezvous, DeskSection, FrontSection],
})
class AgentModule {}

describe(AffordanceService, () => {
  describe('.evaluate', () => {
    describe('over HTTP', () => {
      let running: RunningApp;

      beforeAll(async () => {
        running = await listen(AgentModule);
      });

      afterAll(async () => {
        await running.app.close();
      });

      it("should let each request's tool calls see their own request while several are in flight", async () => {
        const names = ['ada', 'brian', 'chloe', 'dmitri', 'eve'];
        // Every request's first tool call waits here until all five are inside one: they overlap for sure.
        running.app.get(Rendezvous).gate = latch(names.length);

        const answers = await Promise.all(
          names.map((name) =>
            postJson(`${running.url}/agent`, { message: `hi from ${name}` }, { 'x-caller': name }),
          ),
        );

        const instances = new Set<number>();
        answers.forEach((answer, index) => {
          expect(answer.status).toBe(200);
          const { seen } = answer.body as { seen: Seen[] };
          expect(seen.map((entry) => entry.caller)).toEqual([names[index], names[index]]);
          // One Caller per request, shared by both of its tool calls.
          expect(seen[0]?.callerInstance).toBe(seen[1]?.callerInstance);
          instances.add(seen[0]!.callerInstance);
        });
        expect(instances.size).toBe(names.length);
      });

      it('should give the section the same request-scoped instance the controller received', async () => {
        running.app.get(Rendezvous).gate = latch(1);

        const answer = await postJson(`${running.url}/checked`, {}, { 'x-caller': 'frank' });

        const body = answer.body as { controllerCaller: number; seen: Seen[] };
        expect(body.seen.map((entry) => entry.callerInstance)).toEqual([
          body.controllerCaller,
          body.controllerCaller,
        ]);
        expect(body.seen[0]?.caller).toBe('frank');
      });

      it("should keep the request's context in an evaluation nested by a tool", async () => {
        running.app.get(Rendezvous).gate = latch(1);

        const answer = await postJson(
          `${running.url}/agent`,
          { message: 'front: who am I?' },
          { 'x-caller': 'grace' },
        );

        expect((answer.body as { seen: Seen[] }).seen[0]?.caller).toBe('grace');
      });
    });

    describe('in an application context', () => {
      let affordance: AffordanceService;
      let close: () => Promise<void>;

      beforeAll(async () => {
        const app = await createContext(AgentModule);
        affordance = app.get(AffordanceService);
        close = () => app.close();
      });

      afterAll(async () => {
        await close();
      });

      it('should give each evaluation without a request its own context', async () => {
        const first = await affordance.evaluate(deskPrompt, { input: 'one' });
        const second = await affordance.evaluate(deskPrompt, { input: 'two' });

        const seen = [first, second].map((response) =>
          response.toolCalls.map((call) => (call.result.value as Seen).callerInstance),
        );
        expect(seen[0]?.[0]).toBe(seen[0]?.[1]);
        expect(seen[1]?.[0]).toBe(seen[1]?.[1]);
        expect(seen[0]?.[0]).not.toBe(seen[1]?.[0]);
        expect((first.toolCalls[0]?.result.value as Seen).caller).toBe('nobody');
      });

      it('should resolve in the context given as contextId, with its registered request', async () => {
        const contextId = ContextIdFactory.create();
        const request: HttpRequest = { headers: { 'x-caller': 'heidi' } };

        const first = await affordance.evaluate(deskPrompt, { request, contextId, input: 'a' });
        const second = await affordance.evaluate(deskPrompt, { contextId, input: 'b' });

        const all = [...first.toolCalls, ...second.toolCalls].map(
          (call) => call.result.value as Seen,
        );
        expect(all.map((entry) => entry.caller)).toEqual(['heidi', 'heidi', 'heidi', 'heidi']);
        expect(new Set(all.map((entry) => entry.callerInstance)).size).toBe(1);
      });

      it('should give an evaluation started on the adapter directly one context of its own', async () => {
        const runtime = affordance.runtime;

        const first = await runtime.evaluate(deskPrompt, { input: 'direct one' });
        const second = await runtime.evaluate(deskPrompt, { input: 'direct two' });

        const instances = [first, second].map((response) =>
          response.toolCalls.map((call) => (call.result.value as Seen).callerInstance),
        );
        expect(instances[0]?.[0]).toBe(instances[0]?.[1]);
        expect(instances[0]?.[0]).not.toBe(instances[1]?.[0]);
      });

      it('should record the evaluation in the session it is given', async () => {
        const session = new Session();

        await affordance.evaluate(deskPrompt, { session, input: 'with a session' });

        expect(session.slice(Seen).all()).toHaveLength(2);
      });
    });

    it('should refuse to evaluate before the application is initialised', async () => {
      const app = await NestFactory.create(AgentModule, new ExpressAdapter(), quietNest);
      try {
        const error = await catchRejection(ConfigurationError, () =>
          app.get(AffordanceService).evaluate(deskPrompt),
        );
        expect(error.message).toContain('before the Nest application finished initialising');
        expect(error.fix).toContain('app.init()');
      } finally {
        await app.close();
      }
    });
  });
});
