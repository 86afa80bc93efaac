import { IsString } from 'class-validator';
import { inject, injectable, type ServiceIdentifier } from 'inversify';

import {
  AffordanceRuntime,
  EvaluationId,
  Prompt,
  ResourceRegistry,
  Section,
  Session,
  Tool,
  ToolCallId,
  ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime, ScriptedAdapter } from 'affordance/testing';

import { latch } from '../support/deferred.js';

const evaluations = 1_000;

class AgentParams {
  agent = '';
}

class EchoParams {
  @IsString() tag!: string;
}

/** A STATE slice each evaluation's tool writes into its own session. */
class Heard {
  constructor(readonly tag: string) {}
}

/** What one call saw, echoed back to the model. */
class Echo {
  tag!: string;
  agent!: string;
  sessionId!: string;
  callId!: string;
  ledgerCallId!: string;
  evaluationId!: string;
  scratch!: number;
}

/** Counts every scope value and resource that is opened and later released. */
@injectable()
class Census {
  readonly opened = new Map<string, number>();
  readonly released = new Map<string, number>();
  inFlight = 0;
  maxInFlight = 0;

  open(name: string): void {
    this.opened.set(name, (this.opened.get(name) ?? 0) + 1);
  }

  release(name: string): void {
    this.released.set(name, (this.released.get(name) ?? 0) + 1);
  }
}

/** A transient service built per call from the call's own values. */
@injectable()
class CallLedger {
  constructor(
    @inject(ToolCallId) readonly callId: string,
    @inject(ToolContext) readonly context: ToolContext,
  ) {}
}

/** Lets every call in; a call only proceeds once all of them are in flight at the same time. */
@injectable()
class Barrier {
  readonly latch = latch(evaluations);
}

@Section({
  key: 'echo',
  title: 'Echo',
  template: 'You are agent ${agent}.',
  params: AgentParams,
})
class EchoSection {
  constructor(
    @inject(Census) private readonly census: Census,
    @inject(Barrier) private readonly barrier: Barrier,
    @inject(CallLedger) private readonly ledger: CallLedger,
    @inject(ToolContext) private readonly context: ToolContext,
    @inject(Session) private readonly session: Session,
    @inject(EvaluationId) private readonly evaluationId: string,
  ) {}

  @Tool({ name: 'echo', description: 'Echo what this call can see.', result: Echo })
  async echo(params: EchoParams, context: ToolContext): Promise<ToolResult<Echo>> {
    this.census.inFlight += 1;
    this.census.maxInFlight = Math.max(this.census.maxInFlight, this.census.inFlight);
    await this.barrier.latch.arrive();
    this.census.inFlight -= 1;
    if (this.context !== context || this.session !== context.session) {
      return ToolResult.error('The section was built with another call’s context.');
    }
    context.session.dispatch(new Heard(params.tag));
    const agent = /You are agent (\S+)\./.exec(context.renderedPrompt.text)?.[1] ?? '?';
    const scratch = context.resources.get(Scratch);
    const echo = Object.assign(new Echo(), {
      tag: params.tag,
      agent,
      sessionId: context.session.sessionId,
      callId: context.callId,
      ledgerCallId: this.ledger.callId,
      evaluationId: this.evaluationId,
      scratch: scratch.serial,
    });
    return ToolResult.ok(echo, 'Echoed.');
  }
}

/** A tool-call resource; closing it is counted. */
class Scratch {
  constructor(
    readonly serial: number,
    private readonly census: Census,
  ) {
    census.open('Scratch');
  }

  close(): void {
    this.census.release('Scratch');
  }
}

/** An evaluation resource, created eagerly; closing it is counted. */
class EvaluationCache {
  constructor(private readonly census: Census) {
    census.open('EvaluationCache');
  }

  close(): void {
    this.census.release('EvaluationCache');
  }
}

const prompt = new Prompt({ ns: 'test', key: 'echo', sections: [EchoSection] });

describe(AffordanceRuntime, () => {
  describe('.evaluate under concurrency', () => {
    it(`should keep ${evaluations} concurrent evaluations apart and release every scope and resource`, async () => {
      const census = new Census();
      let serial = 0;
      const { runtime, container } = createTestRuntime({
        runtime: {
          resources: new ResourceRegistry()
            .bind(Scratch, { scope: 'tool-call', create: () => new Scratch(++serial, census) })
            .bind(EvaluationCache, { eager: true, create: () => new EvaluationCache(census) }),
        },
        configure: (c) => {
          c.bind(Census).toConstantValue(census);
          c.bind(Barrier).toSelf().inSingletonScope();
          c.bind(CallLedger).toSelf();
        },
      });
      const watched: [ServiceIdentifier, string][] = [
        [ToolContext, 'ToolContext'],
        [ToolCallId, 'ToolCallId'],
        [Session, 'Session'],
        [EvaluationId, 'EvaluationId'],
      ];
      for (const [id, name] of watched) {
        container.onActivation(id, (_context, value: unknown) => {
          census.open(name);
          return value;
        });
        container.onDeactivation(id, () => {
          census.release(name);
        });
      }

      const runs = Array.from({ length: evaluations }, (_, i) => {
        const adapter = new ScriptedAdapter([
          { toolCalls: [{ callId: `call-${i}`, name: 'echo', arguments: { tag: `tag-${i}` } }] },
          { text: `done ${i}` },
        ]);
        const session = new Session({ sessionId: `session-${i}` });
        const params = Object.assign(new AgentParams(), { agent: `agent-${i}` });
        const response = runtime
          .evaluate(prompt, {
            adapter,
            params: [params],
            session,
            input: `question ${i}`,
          })
          .then((r) => {
            adapter.assertDone();
            return r;
          });
        return { i, adapter, session, response };
      });
      const responses = await Promise.all(runs.map((run) => run.response));

      expect(census.maxInFlight).toBe(evaluations);
      const mixups: string[] = [];
      runs.forEach(({ i, adapter, session }, index) => {
        const response = responses[index];
        const echo = response?.toolCalls[0]?.result.value;
        const expected = Object.assign(new Echo(), {
          tag: `tag-${i}`,
          agent: `agent-${i}`,
          sessionId: `session-${i}`,
          callId: `call-${i}`,
          ledgerCallId: `call-${i}`,
          evaluationId: response?.evaluationId ?? '?',
          scratch: (echo as Echo | undefined)?.scratch ?? -1,
        });
        const heard = session
          .slice(Heard)
          .all()
          .map((h) => h.tag);
        const invoked = session.slice(ToolInvoked).all();
        const userMessage = adapter.requests[0]?.messages[1];
        const ok =
          response?.text === `done ${i}` &&
          echo instanceof Echo &&
          JSON.stringify(echo) === JSON.stringify(expected) &&
          heard.length === 1 &&
          heard[0] === `tag-${i}` &&
          invoked.length === 1 &&
          invoked[0]?.evaluationId === response.evaluationId &&
          userMessage?.content === `question ${i}`;
        if (!ok) mixups.push(`evaluation ${i}: ${JSON.stringify(echo)}`);
      });
      expect(mixups).toEqual([]);
      const scratchSerials = new Set(
        responses.map((r) => (r.toolCalls[0]?.result.value as Echo).scratch),
      );
      expect(scratchSerials.size).toBe(evaluations);
      expect(new Set(responses.map((r) => r.evaluationId)).size).toBe(evaluations);

      const everyone = {
        ToolContext: evaluations,
        ToolCallId: evaluations,
        Session: evaluations,
        EvaluationId: evaluations,
        Scratch: evaluations,
        EvaluationCache: evaluations,
      };
      expect(Object.fromEntries(census.opened)).toEqual(everyone);
      expect(Object.fromEntries(census.released)).toEqual(everyone);
    });
  });
});
