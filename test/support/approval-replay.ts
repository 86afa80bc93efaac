import {
  type AffordanceRuntime,
  type ApprovalDecision,
  type EvaluateOptions,
  type EvaluationState,
  MarkdownSection,
  type PendingToolCall,
  Prompt,
  PromptExecuted,
  PromptRendered,
  type PromptResponse,
  type ProviderAdapter,
  Session,
  type ToolApproval,
  ToolDefinition,
  ToolInvoked,
} from 'affordance';

import { comparableEvent } from './telemetry-record.js';

/** A JSON object of a request body. */
export type Json = Record<string, unknown>;

/** Approval rules by tool name: `true`, or a predicate of the call's params and context. */
export type ApprovalRules = Readonly<Record<string, ToolApproval>>;

/**
 * `prompt`'s tools (e.g. a `replayPrompt` of recording-replay.ts or
 * anthropic-recordings.ts) in one `replay` section, with `rules` on them: each
 * function tool rebuilt from its name, description, params, handler and
 * `readOnly` (the replay tools declare nothing else), native tools kept as
 * they are. Both runs of a test build their prompt with this, so they render
 * the same text and offer the same tools, and differ only in the approval rules.
 */
export function withApprovals(prompt: Prompt, rules: ApprovalRules = {}): Prompt {
  const tools = prompt.allTools.map((tool) =>
    tool.native
      ? tool
      : new ToolDefinition({
          name: tool.name,
          description: tool.description,
          params: tool.paramsType,
          handler: tool.handler,
          readOnly: tool.readOnly,
          approval: rules[tool.name],
        }),
  );
  return new Prompt({
    ns: prompt.ns,
    key: prompt.key,
    sections: [
      new MarkdownSection({
        key: 'replay',
        title: 'Replay',
        template: 'Replay a recording.',
        tools,
      }),
    ],
  });
}

/**
 * What the session recorded of the evaluation, without ids, times and
 * durations, in JSON form: `PromptRendered`, each `ToolInvoked` (name, call
 * id, params, raw arguments, outcome, rendered message, result, usage) and
 * `PromptExecuted`.
 */
export function sessionRecords(session: Session): unknown {
  const { view } = session;
  return jsonOf({
    rendered: view.slice(PromptRendered).all().map(comparableEvent),
    invoked: view.slice(ToolInvoked).all().map(comparableEvent),
    executed: view.slice(PromptExecuted).all().map(comparableEvent),
  });
}

/** What two runs of one evaluation must answer alike (not the evaluation id), in JSON form. */
export function answerOf(response: PromptResponse): unknown {
  return jsonOf({
    status: response.status,
    promptName: response.promptName,
    text: response.text,
    output: response.output,
    turns: response.turns,
    usage: response.usage?.toJSON() ?? null,
    toolCalls: response.toolCalls.map((outcome) => ({
      call: outcome.call,
      message: outcome.message,
      event: comparableEvent(outcome.event),
    })),
  });
}

const jsonOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** A local provider server as both test servers are: queued replies, received requests. */
export interface ReplayServer<R> {
  readonly requests: readonly { readonly body: Json }[];
  readonly pending: number;
  reply(...replies: R[]): unknown;
  problems(): string[];
  close(): Promise<void>;
}

/** A fresh container, runtime, adapter and server, as one process builds them. */
export interface ReplayProcess<R> {
  readonly server: ReplayServer<R>;
  readonly runtime: AffordanceRuntime;
  readonly adapter: ProviderAdapter;
}

/** How {@link runInProcesses} runs one evaluation. */
export interface ProcessPlan<R> {
  /** Builds a fresh process (called once per segment). */
  readonly start: () => Promise<ReplayProcess<R>>;
  /** Builds the prompt, as each process would (called once per segment). */
  readonly prompt: () => Prompt;
  /** The provider's replies, one per turn, in order. */
  readonly replies: readonly R[];
  /** The turn (0 first) of each pause the evaluation must make; empty for an uninterrupted run. */
  readonly pauseTurns: readonly number[];
  /** The options of the first run (input, tool choice). */
  readonly options: EvaluateOptions;
  /** The person's decisions for the calls a saved state says are pending. */
  readonly decide?: ((pending: readonly PendingToolCall[]) => ApprovalDecision[]) | undefined;
  /** `stream` runs each segment with `runtime.stream`, else `evaluate` / `resume`. */
  readonly mode?: 'evaluate' | 'stream' | undefined;
}

/** What {@link runInProcesses} saw. */
export interface ProcessRun {
  readonly session: Session;
  /** Every request body the servers received, in order across the processes. */
  readonly bodies: readonly Json[];
  /** The request bodies of each process. */
  readonly segments: readonly (readonly Json[])[];
  /** Each saved state as JSON text, in order of the pauses. */
  readonly saved: readonly string[];
  readonly response: PromptResponse;
}

/** The session id both runs of a test use, so their records compare whole. */
export const REPLAY_SESSION_ID = 'approval-replay';

/**
 * Runs one evaluation across processes: the first process evaluates until
 * the pause at `pauseTurns[0]`, its state goes through `JSON.stringify`; each
 * next process (fresh server serving the replies of its turns, fresh runtime
 * and adapter, the prompt built again) resumes `JSON.parse` of it with the
 * decisions, and so on, until the answer. Each process's server must have
 * served exactly its replies and seen no request that breaks the provider's
 * request schema. The session is the one object carried across, as the
 * application would keep it.
 */
export async function runInProcesses<R>(plan: ProcessPlan<R>): Promise<ProcessRun> {
  const session = new Session({ sessionId: REPLAY_SESSION_ID });
  const segments: Json[][] = [];
  const saved: string[] = [];
  let from = 0;
  for (;;) {
    const pauseAt = plan.pauseTurns[saved.length];
    const to = pauseAt === undefined ? plan.replies.length : pauseAt + 1;
    const opened = await plan.start();
    let response: PromptResponse;
    try {
      opened.server.reply(...plan.replies.slice(from, to));
      response = await segment(plan, opened, session, saved.at(-1));
      expect(opened.server.problems()).toEqual([]);
      expect(opened.server.pending).toBe(0);
      expect(opened.server.requests).toHaveLength(to - from);
      segments.push(opened.server.requests.map((request) => request.body));
    } finally {
      await opened.server.close();
    }
    expect(response.turns).toBe(to);
    if (pauseAt === undefined) {
      expect(response.status).toBe('completed');
      return { session, bodies: segments.flat(), segments, saved, response };
    }
    if (response.status !== 'interrupted') {
      throw new Error(`expected a pause at turn ${pauseAt}, the evaluation ${response.status}`);
    }
    expect(response.interruption.session).toBe(session);
    saved.push(JSON.stringify(response.interruption.state));
    from = to;
  }
}

/** One process's run: the first evaluation, or a resume of the state saved last. */
async function segment<R>(
  plan: ProcessPlan<R>,
  opened: ReplayProcess<R>,
  session: Session,
  saved: string | undefined,
): Promise<PromptResponse> {
  const prompt = plan.prompt();
  const { adapter, runtime } = opened;
  const resume = saved === undefined ? undefined : resumeOf(plan, saved);
  if (plan.mode !== 'stream') {
    return resume === undefined
      ? await runtime.evaluate(prompt, Object.assign({}, plan.options, { session, adapter }))
      : await runtime.resume(prompt, resume.state, resume.decisions, { session, adapter });
  }
  const options: EvaluateOptions =
    resume === undefined
      ? Object.assign({}, plan.options, { session, adapter })
      : { resume, session, adapter };
  let last: PromptResponse | undefined;
  for await (const part of runtime.stream(prompt, options)) {
    if (part.type === 'error') throw part.error;
    if (part.type === 'answer' || part.type === 'interrupted') last = part.response;
  }
  if (last === undefined) throw new Error('the stream ended without an answer or a pause');
  return last;
}

/** The saved state read back, and the person's decisions on its pending calls. */
function resumeOf<R>(
  plan: ProcessPlan<R>,
  saved: string,
): { state: EvaluationState; decisions: ApprovalDecision[] } {
  const state = JSON.parse(saved) as EvaluationState;
  const decide =
    plan.decide ?? ((pending) => pending.map((call) => ({ callId: call.callId, approved: true })));
  return { state, decisions: decide(state.pending) };
}

/** The calls the prompt's handlers ran, as `[tool name, params]`, in order. */
export type RanCalls = [name: string, params: unknown][];

/** One conversation to run twice: uninterrupted, and pausing for approval in fresh processes. */
export interface Scenario<R> {
  /** Builds a fresh process. */
  readonly start: () => Promise<ReplayProcess<R>>;
  /** The prompt, before the approval rules; its handlers log each call they run to `ran`. */
  readonly build: (ran: RanCalls) => Prompt;
  /** The provider's replies, one per turn. */
  readonly replies: readonly R[];
  /** The approval rules of the second run. */
  readonly rules: ApprovalRules;
  /** The turns (0 first) the second run must pause at. */
  readonly pauseTurns: readonly number[];
  readonly options: EvaluateOptions;
  readonly mode?: 'evaluate' | 'stream' | undefined;
  readonly decide?: ((pending: readonly PendingToolCall[]) => ApprovalDecision[]) | undefined;
}

/** What the two runs of a scenario saw. */
export interface Compared {
  readonly baseline: ProcessRun;
  readonly paused: ProcessRun;
  /** The calls the handlers ran in the uninterrupted run. */
  readonly baselineRan: RanCalls;
  /** The calls the handlers ran across the paused run's processes. */
  readonly pausedRan: RanCalls;
}

/** Runs `scenario` uninterrupted (no approval rules, one process), then with its rules across processes. */
export async function runBoth<R>(scenario: Scenario<R>): Promise<Compared> {
  expect(scenario.pauseTurns.length).toBeGreaterThan(0);
  const common = {
    start: scenario.start,
    replies: scenario.replies,
    options: scenario.options,
    mode: scenario.mode,
  };
  const baselineRan: RanCalls = [];
  const baseline = await runInProcesses(
    Object.assign({}, common, {
      prompt: () => withApprovals(scenario.build(baselineRan)),
      pauseTurns: [],
    }),
  );
  const pausedRan: RanCalls = [];
  const paused = await runInProcesses(
    Object.assign({}, common, {
      prompt: () => withApprovals(scenario.build(pausedRan), scenario.rules),
      pauseTurns: scenario.pauseTurns,
      decide: scenario.decide,
    }),
  );
  expect(paused.saved).toHaveLength(scenario.pauseTurns.length);
  return { baseline, paused, baselineRan, pausedRan };
}

/**
 * Both runs sent the provider the same request bodies (parsed JSON, every
 * field), recorded the same events, ran each call once and answered alike.
 */
export function expectSameEvaluation(compared: Compared): void {
  const { baseline, paused } = compared;
  expect(paused.bodies).toStrictEqual(baseline.bodies);
  expect(sessionRecords(paused.session)).toStrictEqual(sessionRecords(baseline.session));
  expect(answerOf(paused.response)).toStrictEqual(answerOf(baseline.response));
  expect(compared.baselineRan.length).toBeGreaterThan(0);
  expect(jsonOf(compared.pausedRan)).toStrictEqual(jsonOf(compared.baselineRan));
}
