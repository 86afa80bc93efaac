import { Body, Controller, HttpCode, Injectable, Module, Post, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

import {
  ConfigurationError,
  EvaluationStream,
  type EvaluationStreamPart,
  Prompt,
  PromptExecuted,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import type { ScriptedTurn } from 'affordance/testing';

import { catchError } from '../support/catch-error.js';
import { deferred } from '../support/deferred.js';
import {
  createContext,
  listen,
  postJson,
  quietNest,
  type RunningApp,
} from '../support/nest-http.js';
import { Caller, type HttpRequest } from '../support/nest-caller.js';
import { ScriptPerEvaluation } from '../support/script-per-evaluation.js';

/** A singleton the cancellation test uses to learn when the `hold` call is running. */
@Injectable()
class Holds {
  started = deferred();
}

class Seen {
  caller!: string;
  callerInstance!: number;
}

@Section({ key: 'desk', title: 'Desk', template: 'Tell the caller who they are.' })
class DeskSection {
  constructor(
    private readonly caller: Caller,
    private readonly holds: Holds,
  ) {}

  @Tool({ name: 'whoami', description: 'Name the caller of the current request.', result: Seen })
  whoami(_params: undefined, _context: ToolContext): ToolResult<Seen> {
    const seen = Object.assign(new Seen(), {
      caller: this.caller.name,
      callerInstance: this.caller.instance,
    });
    return ToolResult.ok(seen, `You are ${seen.caller}.`);
  }

  @Tool({ name: 'hold', description: 'Wait until the call is interrupted.' })
  async hold(_params: undefined, context: ToolContext): Promise<ToolResult> {
    this.holds.started.resolve();
    await new Promise((resolve) => {
      context.signal.addEventListener('abort', resolve);
    });
    return ToolResult.ok(undefined, 'Released.');
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

const deskPrompt = new Prompt({ ns: 'test/nest-stream', key: 'desk', sections: [DeskSection] });
const frontPrompt = new Prompt({ ns: 'test/nest-stream', key: 'front', sections: [FrontSection] });

/** Desk conversations call `whoami` twice (or `hold` once), then answer; the front desk delegates once. */
function scriptFor(input: string): ScriptedTurn[] {
  if (input.startsWith('front:')) return [{ toolCalls: [{ name: 'ask_desk' }] }, { text: 'ok' }];
  if (input.startsWith('hold:')) return [{ toolCalls: [{ name: 'hold' }] }, { text: 'never' }];
  return [
    { toolCalls: [{ name: 'whoami' }] },
    { toolCalls: [{ name: 'whoami' }] },
    { text: 'You are who you are.' },
  ];
}

/** `POST /stream` reads a streamed evaluation to its end inside the request handler. */
@Controller()
class StreamController {
  constructor(
    private readonly affordance: AffordanceService,
    private readonly caller: Caller,
  ) {}

  @Post('stream')
  @HttpCode(200)
  async run(@Req() request: HttpRequest, @Body() body: { message: string }) {
    const prompt = body.message.startsWith('front:') ? frontPrompt : deskPrompt;
    const seen: Seen[] = [];
    for await (const part of this.affordance.stream(prompt, { request, input: body.message })) {
      if (part.type === 'tool-call-end') seen.push(part.event.result.value as Seen);
    }
    return { controllerCaller: this.caller.instance, seen };
  }
}

@Module({
  imports: [
    AffordanceModule.forRoot({
      adapter: () => new ScriptPerEvaluation(scriptFor),
      prompts: [deskPrompt, frontPrompt],
    }),
  ],
  controllers: [StreamController],
  providers: [Caller, Holds, DeskSection, FrontSection],
})
class StreamModule {}

async function collect<O>(stream: EvaluationStream<O>): Promise<EvaluationStreamPart<O>[]> {
  const parts: EvaluationStreamPart<O>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** What each recorded tool call of `parts` saw. */
function seenIn(parts: readonly EvaluationStreamPart[]): Seen[] {
  return parts.flatMap((part) =>
    part.type === 'tool-call-end' ? [part.event.result.value as Seen] : [],
  );
}

function request(caller: string): HttpRequest {
  return { headers: { 'x-caller': caller } };
}

describe('AffordanceService.stream', () => {
  describe('in an application context', () => {
    let affordance: AffordanceService;
    let holds: Holds;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const app = await createContext(StreamModule);
      affordance = app.get(AffordanceService);
      holds = app.get(Holds);
      close = () => app.close();
    });

    afterAll(async () => {
      await close();
    });

    it("should resolve a request-scoped section in the request's context while the stream is read", async () => {
      const stream = affordance.stream(deskPrompt, { request: request('ada'), input: 'hi' });

      expect(stream).toBeInstanceOf(EvaluationStream);
      const parts = await collect(stream);

      const seen = seenIn(parts);
      expect(seen.map((entry) => entry.caller)).toEqual(['ada', 'ada']);
      // One Caller for the evaluation: both calls resolved in the same Nest context.
      expect(seen[0]?.callerInstance).toBe(seen[1]?.callerInstance);
      const last = parts.at(-1);
      expect(last?.type === 'answer' ? last.response.text : last).toBe('You are who you are.');
    });

    it('should keep each stream in its own request when two are read in turns', async () => {
      const iterators = ['bea', 'cid'].map((caller) =>
        affordance
          .stream(deskPrompt, { request: request(caller), input: caller })
          [Symbol.asyncIterator](),
      );
      const parts: EvaluationStreamPart[][] = [[], []];
      const open = [true, true];

      // One part from each in turn, from this test's own async context: the reads interleave.
      while (open.some(Boolean)) {
        for (const [index, iterator] of iterators.entries()) {
          if (!open[index]) continue;
          const next = await iterator.next();
          if (next.done === true) open[index] = false;
          else parts[index]?.push(next.value);
        }
      }

      const seen = parts.map(seenIn);
      expect(seen[0]?.map((entry) => entry.caller)).toEqual(['bea', 'bea']);
      expect(seen[1]?.map((entry) => entry.caller)).toEqual(['cid', 'cid']);
      expect(seen[0]?.[0]?.callerInstance).not.toBe(seen[1]?.[0]?.callerInstance);
    });

    it('should keep the request while the evaluation runs on between reads', async () => {
      const session = new Session();
      const iterator = affordance
        .stream(deskPrompt, { request: request('fay'), session, input: 'fay' })
        [Symbol.asyncIterator]();
      const parts: EvaluationStreamPart[] = [];
      // Read up to the end of the first turn: its call starts once the reader has read the turn.
      let next = await iterator.next();
      for (; next.done !== true && next.value.type !== 'turn-end'; next = await iterator.next()) {
        parts.push(next.value);
      }
      // No read under way now: the evaluation runs on into the stream's buffer, running the call.
      for (let waited = 0; waited < 200 && session.slice(ToolInvoked).all().length < 1; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(session.slice(ToolInvoked).all()).toHaveLength(1);
      for (; next.done !== true; next = await iterator.next()) parts.push(next.value);

      expect(seenIn(parts).map((entry) => entry.caller)).toEqual(['fay', 'fay']);
    });

    it('should keep the request in an evaluation nested by a tool of a streamed evaluation', async () => {
      const parts = await collect(
        affordance.stream(frontPrompt, { request: request('dora'), input: 'front: who am I?' }),
      );

      expect(seenIn(parts).map((entry) => entry.caller)).toEqual(['dora']);
    });

    it('should give a stream without a request a context of its own', async () => {
      const parts = await collect(affordance.stream(deskPrompt, { input: 'anyone?' }));

      const seen = seenIn(parts);
      expect(seen.map((entry) => entry.caller)).toEqual(['nobody', 'nobody']);
      expect(seen[0]?.callerInstance).toBe(seen[1]?.callerInstance);
    });

    it('should cancel the evaluation when the reader stops, recording the interrupted call', async () => {
      holds.started = deferred();
      const session = new Session();
      const stream = affordance.stream(deskPrompt, {
        request: request('eli'),
        session,
        input: 'hold: wait for me',
      });
      const iterator = stream[Symbol.asyncIterator]();
      const types: string[] = [];
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        types.push(next.value.type);
        if (next.value.type === 'turn-end') break;
      }
      await holds.started.promise;

      await iterator.return?.();

      expect(types).not.toContain('tool-call-end');
      const calls = session.slice(ToolInvoked).all();
      expect(calls.map((call) => [call.name, call.outcome])).toEqual([['hold', 'unknown']]);
      expect(session.slice(PromptExecuted).all()).toEqual([]);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('should let cancel() stop a stream that was never read', async () => {
      const session = new Session();
      const stream = affordance.stream(deskPrompt, { session, input: 'never read' });

      await stream.cancel();

      expect(await collect(stream)).toEqual([]);
      expect(session.slice(ToolInvoked).all()).toEqual([]);
    });
  });

  describe('over HTTP', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await listen(StreamModule);
    });

    afterAll(async () => {
      await running.app.close();
    });

    it('should give the section the request-scoped instance the controller received', async () => {
      const answer = await postJson(
        `${running.url}/stream`,
        { message: 'hi' },
        { 'x-caller': 'fay' },
      );

      expect(answer.status).toBe(200);
      const body = answer.body as { controllerCaller: number; seen: Seen[] };
      expect(body.seen.map((entry) => entry.caller)).toEqual(['fay', 'fay']);
      expect(body.seen.map((entry) => entry.callerInstance)).toEqual([
        body.controllerCaller,
        body.controllerCaller,
      ]);
    });

    it('should keep concurrent requests apart', async () => {
      const names = ['gus', 'hal', 'ivy', 'jo'];

      const answers = await Promise.all(
        names.map((name) =>
          postJson(`${running.url}/stream`, { message: `front: ${name}` }, { 'x-caller': name }),
        ),
      );

      expect(answers.map((answer) => (answer.body as { seen: Seen[] }).seen[0]?.caller)).toEqual(
        names,
      );
    });
  });

  it('should refuse to stream before the application is initialised, at once', async () => {
    const app = await NestFactory.create(StreamModule, new ExpressAdapter(), quietNest);
    try {
      const error = catchError(ConfigurationError, () =>
        app.get(AffordanceService).stream(deskPrompt),
      );
      expect(error.message).toContain('before the Nest application finished initialising');
      expect(error.fix).toContain('app.init()');
    } finally {
      await app.close();
    }
  });
});
