import { IsInt, IsString, Min } from 'class-validator';

import { Container } from 'inversify';

import {
  AffordanceRuntime,
  Budget,
  BudgetExceededError,
  BudgetTracker,
  ConfigurationError,
  Deadline,
  DeadlineExceededError,
  installAffordance,
  type EvaluateOptions,
  MarkdownSection,
  NativeTool,
  OutputParseError,
  Prompt,
  PromptEvaluationError,
  PromptExecuted,
  PromptRendered,
  PromptValidationError,
  type RuntimeOptions,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import type { ProviderRequest, ProviderTurn } from 'affordance/provider';
import {
  createTestRuntime,
  ManualClock,
  ScriptedAdapter,
  type ScriptedTurn,
} from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { settle, toolMessages } from '../support/conversation.js';
import { deferred } from '../support/deferred.js';

class LookupParams {
  @IsString() city!: string;
}

/** A tool result value with a class of its own: a successful call puts it in its own slice. */
class CityFact {
  city!: string;
  population!: number;
}

const fact = (city: string, population: number): CityFact =>
  Object.assign(new CityFact(), { city, population });

class Answer {
  @IsString() city!: string;
  @IsInt() @Min(0) population!: number;
}

const populations = new Map([
  ['Paris', 2_100_000],
  ['Lyon', 520_000],
]);

const lookup = new ToolDefinition({
  name: 'lookup_city',
  description: 'Look up the population of a city.',
  params: LookupParams,
  result: CityFact,
  handler: (params: LookupParams) => {
    const population = populations.get(params.city);
    if (population === undefined) return ToolResult.error(`No city named '${params.city}'.`);
    return ToolResult.ok(fact(params.city, population), `Found ${params.city}.`);
  },
});

function citySection(tools: ToolDefinition[] = [lookup]): MarkdownSection {
  return new MarkdownSection({
    key: 'cities',
    title: 'Cities',
    template: 'Answer questions about cities.',
    tools,
  });
}

const freeText = new Prompt({ ns: 'test', key: 'cities', sections: [citySection()] });
const structured = new Prompt({
  ns: 'test',
  key: 'cities',
  sections: [citySection()],
  output: Answer,
});
const listed = new Prompt({
  ns: 'test',
  key: 'cities',
  sections: [citySection()],
  output: [Answer],
});

const lookupCall = (city: string, callId = `call_${city}`): ScriptedTurn => ({
  toolCalls: [{ callId, name: 'lookup_city', arguments: { city } }],
});

function run<O>(
  prompt: Prompt<O>,
  script: readonly ScriptedTurn[],
  options: EvaluateOptions = {},
  runtime: RuntimeOptions = {},
) {
  const session = options.session ?? new Session();
  const agent = createTestRuntime({ script, runtime });
  return {
    adapter: agent.adapter,
    session,
    evaluate: () => agent.evaluate(prompt, { ...options, session }),
  };
}

describe(AffordanceRuntime, () => {
  describe('.evaluate', () => {
    it('should send the rendered prompt as the system message, then the user input', async () => {
      const { adapter, evaluate } = run(freeText, [{ text: 'Paris is big.' }], {
        input: 'How big is Paris?',
      });

      const response = await evaluate();

      expect(response.text).toBe('Paris is big.');
      expect(response.output).toBeNull();
      expect(response.turns).toBe(1);
      const [request] = adapter.requests;
      expect(request?.messages).toEqual([
        { role: 'system', content: freeText.render().text },
        { role: 'user', content: 'How big is Paris?' },
      ]);
      expect(request?.tools.map((tool) => tool.name)).toEqual(['lookup_city']);
      expect(request?.turn).toBe(0);
      expect(request?.output).toBeUndefined();
      expect(request?.evaluationId).toBe(response.evaluationId);
    });

    it('should send no user message when there is no input', async () => {
      const { adapter, evaluate } = run(freeText, [{ text: 'Ask me about a city.' }]);

      await evaluate();

      expect(adapter.requests[0]?.messages.map((message) => message.role)).toEqual(['system']);
    });

    it('should loop through tool calls until the model answers without one', async () => {
      const { adapter, evaluate } = run(freeText, [
        { text: 'Let me check.', ...lookupCall('Paris') },
        lookupCall('Atlantis'),
        { text: 'Paris has 2.1 million people; Atlantis is not a city.' },
      ]);

      const response = await evaluate();

      expect(response.turns).toBe(3);
      expect(response.toolCalls.map((call) => [call.call.callId, call.result.success])).toEqual([
        ['call_Paris', true],
        ['call_Atlantis', false],
      ]);
      const last = adapter.requests[2];
      expect(last?.turn).toBe(2);
      expect(last?.messages.map((message) => message.role)).toEqual([
        'system',
        'assistant',
        'tool',
        'assistant',
        'tool',
      ]);
      expect(last?.messages[1]).toMatchObject({ role: 'assistant', content: 'Let me check.' });
      expect(toolMessages(last)).toEqual([
        ['call_Paris', 'Found Paris.\n\n{"city":"Paris","population":2100000}'],
        ['call_Atlantis', "No city named 'Atlantis'."],
      ]);
    });

    describe('structured output', () => {
      it('should parse a JSON answer into an instance of the output class', async () => {
        const { adapter, evaluate } = run(structured, [
          lookupCall('Lyon'),
          { text: '{"city": "Lyon", "population": 520000}' },
        ]);

        const response = await evaluate();

        expect(response.output).toBeInstanceOf(Answer);
        expect(response.output).toEqual(
          Object.assign(new Answer(), { city: 'Lyon', population: 520_000 }),
        );
        expect(response.text).toBeNull();
        expect(adapter.requests[0]?.output).toEqual({ type: Answer, container: 'object' });
      });

      it('should prefer the value the provider already decoded', async () => {
        const { evaluate } = run(structured, [
          { text: 'ignored', parsed: { city: 'Paris', population: 2_100_000 } },
        ]);

        const response = await evaluate();

        expect(response.output).toEqual(
          Object.assign(new Answer(), { city: 'Paris', population: 2_100_000 }),
        );
      });

      it('should parse a list output into instances of the element class', async () => {
        const { adapter, evaluate } = run(listed, [
          {
            text: '```json\n[{"city": "Paris", "population": 2100000}, {"city": "Lyon", "population": 520000}]\n```',
          },
        ]);

        const response = await evaluate();

        expect(Array.isArray(response.output)).toBe(true);
        const answers = response.output as Answer[];
        expect(answers.map((answer) => answer instanceof Answer)).toEqual([true, true]);
        expect(answers.map((answer) => answer.city)).toEqual(['Paris', 'Lyon']);
        expect(adapter.requests[0]?.output).toEqual({ type: Answer, container: 'array' });
      });

      it('should stop with a response-phase error when the answer does not match the output class', async () => {
        const turn: ScriptedTurn = { text: '{"city": "Lyon", "population": "many"}' };
        const { evaluate } = run(structured, [turn]);

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('response');
        expect(OutputParseError.is(error.cause)).toBe(true);
        expect(error.message).toMatch(/^Prompt 'test\/cities' \(response\): .*population/);
        expect(error.providerPayload).toBe(turn);
      });

      it('should put a class-instance output in its own slice', async () => {
        const { session, evaluate } = run(structured, [
          { text: '{"city": "Lyon", "population": 520000}' },
        ]);

        await evaluate();

        expect(session.slice(Answer).all()).toEqual([
          Object.assign(new Answer(), { city: 'Lyon', population: 520_000 }),
        ]);
      });
    });

    describe('turn limit', () => {
      it('should stop with an error naming the limit after maxTurns requests', async () => {
        const { adapter, evaluate } = run(
          freeText,
          [lookupCall('Paris', 'c1'), lookupCall('Paris', 'c2'), { text: 'never requested' }],
          { maxTurns: 2 },
        );

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('response');
        expect(error.message).toBe(
          "Prompt 'test/cities' (response): The model was still calling tools after 2 requests (maxTurns). " +
            'Raise maxTurns in evaluate() or installAffordance(), or tell the model when to stop.',
        );
        expect(adapter.requests).toHaveLength(2);
        expect(adapter.remaining).toBe(1);
      });

      it("should take the runtime's maxTurns when evaluate() sets none", async () => {
        const { adapter, evaluate } = run(
          freeText,
          [lookupCall('Paris'), { text: 'never requested' }],
          {},
          { maxTurns: 1 },
        );

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.message).toContain('after 1 requests (maxTurns)');
        expect(adapter.requests).toHaveLength(1);
      });

      it('should allow 24 requests by default', async () => {
        const script = Array.from({ length: 25 }, (_, index) => lookupCall('Paris', `c${index}`));
        const { adapter, evaluate } = run(freeText, script);

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.message).toContain('after 24 requests (maxTurns)');
        expect(adapter.requests).toHaveLength(24);
      });

      it('should reject a turn limit that is not a positive integer', async () => {
        expect(
          catchError(ConfigurationError, () => createTestRuntime({ runtime: { maxTurns: 0 } }))
            .message,
        ).toMatch(/maxTurns/);
        expect(
          catchError(ConfigurationError, () =>
            createTestRuntime({ runtime: { readOnlyConcurrency: 1.5 } }),
          ).message,
        ).toMatch(/readOnlyConcurrency/);
        const { evaluate } = run(freeText, [{ text: 'never requested' }], { maxTurns: -1 });
        expect((await catchRejection(ConfigurationError, evaluate)).message).toMatch(/maxTurns/);
      });
    });

    describe('budget', () => {
      it('should stop with a budget-phase error as soon as a response goes over the budget', async () => {
        let looked = 0;
        const counting = new ToolDefinition({
          name: 'lookup_city',
          description: 'Look up a city.',
          params: LookupParams,
          handler: () => {
            looked += 1;
            return ToolResult.error('unused');
          },
        });
        const prompt = new Prompt({
          ns: 'test',
          key: 'cities',
          sections: [citySection([counting])],
        });
        const { evaluate } = run(
          prompt,
          [
            { ...lookupCall('Paris'), usage: { inputTokens: 60, outputTokens: 10 } },
            { ...lookupCall('Lyon'), usage: { inputTokens: 30, outputTokens: 20 } },
            { text: 'never requested' },
          ],
          { budget: new Budget({ maxTotalTokens: 100 }) },
        );

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('budget');
        expect(error.message).toBe(
          "Prompt 'test/cities' (budget): Budget exceeded: totalTokens used 120 of 100. " +
            'Raise the limit in the Budget or shorten the conversation.',
        );
        expect(BudgetExceededError.is(error.cause)).toBe(true);
        expect(looked).toBe(1);
      });

      it("should stop with a budget-phase error when the budget's own deadline passes", async () => {
        const clock = new ManualClock();
        const budget = new Budget({ deadline: Deadline.in(5_000, { clock }) });
        const session = new Session();
        session.dispatcher.subscribe(ToolInvoked, () => {
          clock.advance(5_000);
        });
        const { adapter, evaluate } = run(
          freeText,
          [lookupCall('Paris'), { text: 'never requested' }],
          { budget, session },
        );

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('budget');
        expect(DeadlineExceededError.is(error.cause)).toBe(true);
        expect(error.message).toBe(
          "Prompt 'test/cities' (budget): Deadline 2026-01-01T00:00:05.000Z expired before the budget check. " +
            'Allow more time with a later Deadline, or do less work per evaluation.',
        );
        expect(adapter.requests).toHaveLength(1);
      });

      it("should record the evaluation's cumulative usage in a shared tracker", async () => {
        const tracker = new BudgetTracker(new Budget({ maxTotalTokens: 1_000 }));
        const { evaluate } = run(
          freeText,
          [
            { ...lookupCall('Paris'), usage: { inputTokens: 60, outputTokens: 10 } },
            { text: 'Paris.', usage: { inputTokens: 90, outputTokens: 5 } },
          ],
          { budgetTracker: tracker },
        );

        const response = await evaluate();

        expect(tracker.usageFor(response.evaluationId)).toEqual(response.usage);
        expect(tracker.consumed.totalTokens).toBe(165);
      });
    });

    describe('deadline', () => {
      it('should refuse to start once the deadline has passed', async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(5_000, { clock });
        clock.advance(5_000);
        const { adapter, evaluate } = run(freeText, [{ text: 'never requested' }], { deadline });

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('request');
        expect(error.message).toBe(
          "Prompt 'test/cities' (request): Deadline expired before evaluation started.",
        );
        expect(adapter.requests).toHaveLength(0);
      });

      it('should stop before the next request once the deadline has passed', async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(5_000, { clock });
        const session = new Session();
        session.dispatcher.subscribe(ToolInvoked, () => {
          clock.advance(5_000);
        });
        const { adapter, evaluate } = run(
          freeText,
          [lookupCall('Paris'), { text: 'never requested' }],
          { deadline, session },
        );

        const error = await catchRejection(PromptEvaluationError, evaluate);

        expect(error.phase).toBe('request');
        expect(error.message).toBe(
          "Prompt 'test/cities' (request): Deadline expired before the provider request.",
        );
        expect(adapter.requests).toHaveLength(1);
        expect(
          session
            .slice(ToolInvoked)
            .all()
            .map((event) => event.outcome),
        ).toEqual(['success']);
      });

      it('should hand the deadline and its signal to the provider request', async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(5_000, { clock });
        /** Passes the deadline while the request is in flight, noting whether its signal saw it. */
        class Watching extends ScriptedAdapter {
          readonly seen: boolean[] = [];
          override async request(request: ProviderRequest): Promise<ProviderTurn> {
            this.seen.push(request.signal.aborted);
            clock.advance(5_000);
            this.seen.push(request.signal.aborted);
            return await super.request(request);
          }
        }
        const adapter = new Watching([{ text: 'Paris.' }]);

        await catchRejection(PromptEvaluationError, () =>
          installAffordance(new Container()).evaluate(freeText, { adapter, deadline }),
        );

        expect(adapter.requests[0]?.deadline).toBe(deadline);
        expect(adapter.seen).toEqual([false, true]);
      });

      it('should leave no timer holding the deadline once the evaluation ended, and still stop a later one sharing it', async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(5_000, { clock });
        const runtime = installAffordance(new Container());
        /** Notes whether its request's signal is aborted before and after the deadline passes. */
        class Watching extends ScriptedAdapter {
          readonly seen: boolean[] = [];
          override async request(request: ProviderRequest): Promise<ProviderTurn> {
            this.seen.push(request.signal.aborted);
            expect(clock.pendingTimers).toBe(1);
            clock.advance(5_000);
            this.seen.push(request.signal.aborted);
            return await super.request(request);
          }
        }

        const first = await runtime.evaluate(freeText, {
          adapter: new ScriptedAdapter([{ text: 'Paris.' }]),
          deadline,
        });
        expect(first.text).toBe('Paris.');
        // Nothing waits on the deadline any more: no timer keeps it (and what it reaches) alive.
        expect(clock.pendingTimers).toBe(0);

        const adapter = new Watching([{ text: 'Lyon.' }]);
        await catchRejection(PromptEvaluationError, () =>
          runtime.evaluate(freeText, { adapter, deadline }),
        );
        expect(adapter.seen).toEqual([false, true]);
        expect(clock.pendingTimers).toBe(0);
      });

      it("should keep the deadline's own signal armed once read, since anyone may poll it", async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(5_000, { clock });
        const { signal } = deadline;
        await installAffordance(new Container()).evaluate(freeText, {
          adapter: new ScriptedAdapter([{ text: 'Paris.' }]),
          deadline,
        });
        expect(clock.pendingTimers).toBe(1);
        clock.advance(5_000);
        expect(signal.aborted).toBe(true);
      });
    });

    describe('tool choice', () => {
      it('should force a named tool on the first request only, then go back to auto', async () => {
        const { adapter, evaluate } = run(
          freeText,
          [lookupCall('Paris'), lookupCall('Lyon'), { text: 'Done.' }],
          { toolChoice: { name: 'lookup_city' } },
        );

        await evaluate();

        expect(adapter.requests.map((request) => request.toolChoice)).toEqual([
          { name: 'lookup_city' },
          'auto',
          'auto',
        ]);
      });

      it('should keep a choice such as required for every request', async () => {
        const { adapter, evaluate } = run(freeText, [lookupCall('Paris'), { text: 'Done.' }], {
          toolChoice: 'required',
        });

        await evaluate();

        expect(adapter.requests.map((request) => request.toolChoice)).toEqual([
          'required',
          'required',
        ]);
      });

      it('should default to auto', async () => {
        const { adapter, evaluate } = run(freeText, [{ text: 'Done.' }]);

        await evaluate();

        expect(adapter.requests[0]?.toolChoice).toBe('auto');
      });
    });

    describe('events', () => {
      it('should log PromptRendered, then each ToolInvoked, then PromptExecuted, in order', async () => {
        const session = new Session();
        const seen: string[] = [];
        session.dispatcher.subscribe(PromptRendered, () => seen.push('PromptRendered'));
        session.dispatcher.subscribe(ToolInvoked, (event) =>
          seen.push(`ToolInvoked ${event.callId}`),
        );
        session.dispatcher.subscribe(PromptExecuted, () => seen.push('PromptExecuted'));
        const { evaluate } = run(
          structured,
          [
            {
              toolCalls: [
                { callId: 'c1', name: 'lookup_city', arguments: { city: 'Paris' } },
                { callId: 'c2', name: 'lookup_city', arguments: { city: 'Atlantis' } },
              ],
              usage: { inputTokens: 50, outputTokens: 10 },
            },
            {
              text: '{"city": "Paris", "population": 2100000}',
              usage: { inputTokens: 70, outputTokens: 12 },
            },
          ],
          { session, input: 'Paris?' },
        );

        const response = await evaluate();

        expect(seen).toEqual([
          'PromptRendered',
          'ToolInvoked c1',
          'ToolInvoked c2',
          'PromptExecuted',
        ]);
        const [rendered] = session.slice(PromptRendered).all();
        const invoked = session.slice(ToolInvoked).all();
        const [executed] = session.slice(PromptExecuted).all();
        for (const event of [rendered, ...invoked, executed]) {
          expect(event).toMatchObject({
            promptName: 'cities',
            promptNs: 'test',
            promptKey: 'cities',
            adapter: 'scripted',
            sessionId: session.sessionId,
            evaluationId: response.evaluationId,
          });
        }
        expect(rendered?.renderedPrompt).toBe(structured.render().text);
        expect(invoked.map((event) => event.outcome)).toEqual(['success', 'failure']);
        expect(invoked[0]?.params).toEqual(Object.assign(new LookupParams(), { city: 'Paris' }));
        expect(invoked[0]?.usage?.totalTokens).toBe(60);
        expect(executed?.result.output).toBe(response.output);
        expect(executed?.usage?.totalTokens).toBe(142);
        expect(response.usage?.totalTokens).toBe(142);
        expect(response.toolCalls.map((call) => call.event)).toEqual(invoked);
      });

      it("should time calls and evaluations with the runtime's clock", async () => {
        const clock = new ManualClock();
        const started = deferred();
        const release = deferred();
        const wait = new ToolDefinition({
          name: 'wait',
          description: 'Wait for the test.',
          handler: async () => {
            started.resolve();
            await release.promise;
            return new ToolResult({ message: 'Waited.' });
          },
        });
        const prompt = new Prompt({ ns: 'test', key: 'timed', sections: [citySection([wait])] });
        const session = new Session();
        const { evaluate } = run(
          prompt,
          [{ toolCalls: [{ name: 'wait' }] }, { text: 'Done.' }],
          { session },
          { clock },
        );

        const running = evaluate();
        await started.promise;
        clock.advance(250);
        release.resolve();
        await running;

        expect(session.slice(ToolInvoked).latest()?.durationMs).toBe(250);
        expect(session.slice(PromptExecuted).latest()?.durationMs).toBe(250);
      });

      it('should put the class-instance value of a successful call in its own slice', async () => {
        const { session, evaluate } = run(freeText, [
          lookupCall('Paris'),
          lookupCall('Atlantis'),
          lookupCall('Lyon'),
          { text: 'Done.' },
        ]);

        await evaluate();

        expect(session.slice(CityFact).all()).toEqual([
          fact('Paris', 2_100_000),
          fact('Lyon', 520_000),
        ]);
      });

      it('should use a new session when none is given', async () => {
        const agent = createTestRuntime({ script: [{ text: 'Paris.' }] });

        const response = await agent.evaluate(freeText);

        expect(response.text).toBe('Paris.');
      });
    });

    describe('nested evaluation', () => {
      it("should land a child evaluation's events in the parent's session, in order", async () => {
        const clock = new ManualClock();
        const deadline = Deadline.in(60_000, { clock });
        const childDeadlines: (Deadline | undefined)[] = [];
        const childLookup = new ToolDefinition({
          name: 'lookup_city',
          description: 'Look up a city.',
          params: LookupParams,
          handler: (params: LookupParams, context: ToolContext) => {
            childDeadlines.push(context.deadline);
            return ToolResult.ok(fact(params.city, 1), `Found ${params.city}.`);
          },
        });
        const child = new Prompt({
          ns: 'test',
          key: 'researcher',
          sections: [citySection([childLookup])],
        });
        const delegate = new ToolDefinition({
          name: 'delegate',
          description: 'Ask the researcher sub-agent.',
          handler: async (_params: undefined, context: ToolContext) => {
            const answer = await context.evaluate(child, {
              session: context.session,
              deadline: context.deadline,
            });
            return new ToolResult({ message: `The researcher says: ${answer.text ?? ''}` });
          },
        });
        const parent = new Prompt({
          ns: 'test',
          key: 'lead',
          sections: [
            new MarkdownSection({
              key: 'lead',
              title: 'Lead',
              template: 'Delegate.',
              tools: [delegate],
            }),
          ],
        });
        const session = new Session();
        const seen: string[] = [];
        session.dispatcher.subscribe(PromptRendered, (e) => seen.push(`rendered ${e.promptKey}`));
        session.dispatcher.subscribe(ToolInvoked, (e) =>
          seen.push(`invoked ${e.promptKey} ${e.name}`),
        );
        session.dispatcher.subscribe(PromptExecuted, (e) => seen.push(`executed ${e.promptKey}`));
        const { adapter, evaluate } = run(
          parent,
          [
            { toolCalls: [{ callId: 'p1', name: 'delegate' }] },
            lookupCall('Paris', 'r1'),
            { text: 'Paris is large.' },
            { text: 'Done: Paris is large.' },
          ],
          { session, deadline },
        );

        const response = await evaluate();

        expect(response.text).toBe('Done: Paris is large.');
        expect(seen).toEqual([
          'rendered lead',
          'rendered researcher',
          'invoked researcher lookup_city',
          'executed researcher',
          'invoked lead delegate',
          'executed lead',
        ]);
        expect(adapter.requests.map((request) => [request.prompt.key, request.turn])).toEqual([
          ['lead', 0],
          ['researcher', 0],
          ['researcher', 1],
          ['lead', 1],
        ]);
        expect(toolMessages(adapter.requests[3])).toEqual([
          ['p1', 'The researcher says: Paris is large.'],
        ]);
        const evaluations = new Set(
          session
            .slice(PromptRendered)
            .all()
            .map((e) => e.evaluationId),
        );
        expect(evaluations.size).toBe(2);
        expect(childDeadlines).toEqual([deadline]);
        expect(session.slice(CityFact).all()).toEqual([fact('Paris', 1)]);
      });
    });

    it('should stop both evaluations when the deadline passes inside a nested one', async () => {
      const clock = new ManualClock();
      const deadline = Deadline.in(10_000, { clock });
      const started = deferred();
      const slow = new ToolDefinition({
        name: 'slow_search',
        description: 'Search slowly.',
        handler: async (_params: undefined, context: ToolContext) => {
          started.resolve();
          await new Promise((resolve) => {
            context.signal.addEventListener('abort', resolve);
          });
          return new ToolResult({ message: 'too late' });
        },
      });
      const child = new Prompt({ ns: 'test', key: 'researcher', sections: [citySection([slow])] });
      const delegate = new ToolDefinition({
        name: 'delegate',
        description: 'Ask the researcher sub-agent.',
        handler: async (_params: undefined, context: ToolContext) => {
          const answer = await context.evaluate(child, {
            session: context.session,
            deadline: context.deadline,
          });
          return new ToolResult({ message: answer.text ?? '' });
        },
      });
      const parent = new Prompt({
        ns: 'test',
        key: 'lead',
        sections: [
          new MarkdownSection({
            key: 'lead',
            title: 'Lead',
            template: 'Delegate.',
            tools: [delegate],
          }),
        ],
      });
      const session = new Session();
      const { evaluate } = run(
        parent,
        [{ toolCalls: [{ name: 'delegate' }] }, { toolCalls: [{ name: 'slow_search' }] }],
        { session, deadline },
      );

      const running = evaluate();
      await started.promise;
      clock.advance(10_000);
      const error = await catchRejection(PromptEvaluationError, () => running);
      await settle();

      expect(error.message).toContain(
        "Tool 'delegate' was interrupted because the deadline passed",
      );
      const outcomes = session
        .slice(ToolInvoked)
        .all()
        .map((event) => `${event.promptKey} ${event.name} ${event.outcome}`);
      expect(outcomes.sort()).toEqual(['lead delegate unknown', 'researcher slow_search unknown']);
      expect(session.slice(PromptExecuted).all()).toEqual([]);
    });

    it('should reject a provider-executed tool the adapter cannot offer, before any request', async () => {
      const prompt = new Prompt({
        ns: 'test',
        key: 'search',
        sections: [
          new MarkdownSection({
            key: 'search',
            title: 'Search',
            template: 'Search the web.',
            tools: [
              new NativeTool({
                name: 'web_search',
                description: 'Search the web.',
                type: 'web_search',
              }),
            ],
          }),
        ],
      });
      const { adapter, evaluate } = run(prompt, [{ text: 'never requested' }]);

      const error = await catchRejection(PromptValidationError, evaluate);

      expect(error.message).toContain(
        "Adapter 'scripted' cannot offer the provider-executed tool 'web_search'",
      );
      expect(adapter.requests).toHaveLength(0);
    });
  });
});
