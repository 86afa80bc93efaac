/**
 * Runs one planned evaluation of the dispatch prompt through the whole public
 * dispatch (ScriptedAdapter → runtime → executor → session) and checks the
 * promises every call must keep, whatever the model sends and the tools do:
 * the evaluation resolves; every call gets exactly one tool message and
 * exactly one `ToolInvoked`, in call order; no built-in or params prototype
 * changes. Shared by `dispatch.property.test.ts` and `npm run fuzz`, so it
 * uses no jest API.
 */
import { type AffordanceRuntime, Session, ToolInvoked, ToolResult } from 'affordance';
import type { ProviderRequest, ProviderTurn } from 'affordance/provider';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import {
  dispatchPrompt,
  paramsClasses,
  planBehaviours,
  type PlannedBehaviour,
  plannedBehaviour,
} from './dispatch-prompt.js';
import type { Hostile } from './hostile-values.js';
import { changesSince, type Fingerprint, fingerprint } from './prototype-fingerprint.js';

/** One planned tool call of the scripted model. */
export interface CallPlan {
  /** The tool name the model asks for. */
  readonly name: string;
  /**
   * The arguments: text sent verbatim, `undefined` for none, or a maker of a
   * huge text (or, when `decoded`, of a value handed over already decoded).
   */
  readonly args: string | Hostile | undefined;
  /** Hand `args` over as a decoded value instead of text. */
  readonly decoded?: boolean;
  /** Appended to the call id (`call_<n>`), which stays unique. */
  readonly idSuffix: string;
  /** What `produce`/`peek` return. */
  readonly returns?: Hostile;
  /** What `explode` (or `produce`/`peek` without `returns`) throws. */
  readonly throws?: Hostile;
  /** Return or throw from a promise instead of synchronously. */
  readonly async?: boolean;
  /** A `ToolInvoked` subscriber throws this for the call. */
  readonly subscriberThrows?: Hostile;
}

/** The tool-calling turns of one evaluation; a final text turn follows them. */
export type EvaluationPlan = readonly (readonly CallPlan[])[];

/** How a call ended, from its result. */
export type CallKind =
  | 'success'
  | 'unknown tool'
  | 'invalid arguments'
  | 'handler threw'
  | 'recording failed'
  | 'interrupted'
  | 'tool error'
  | 'message not a string';

/** What running one planned evaluation showed. */
export interface EvaluationReport {
  /** Calls planned. */
  readonly calls: number;
  /** Calls by how they ended (absent when the evaluation rejected). */
  readonly kinds: ReadonlyMap<CallKind, number>;
  /** Length of the longest tool message the model read, in characters. */
  readonly longestMessage: number;
  /** Broken promises, each a sentence; empty when every promise held. */
  readonly violations: readonly string[];
}

/** Every prototype the dispatch must leave alone. */
export function guardedPrototypes(): Fingerprint {
  const targets: Record<string, object> = {
    'Object.prototype': Object.prototype,
    'Array.prototype': Array.prototype,
    'Function.prototype': Function.prototype,
    'String.prototype': String.prototype,
    'Number.prototype': Number.prototype,
    'Boolean.prototype': Boolean.prototype,
    'BigInt.prototype': BigInt.prototype,
    'Symbol.prototype': Symbol.prototype,
    'Date.prototype': Date.prototype,
    'Map.prototype': Map.prototype,
    'Set.prototype': Set.prototype,
    'Promise.prototype': Promise.prototype,
    'Error.prototype': Error.prototype,
    'RegExp.prototype': RegExp.prototype,
    'ToolResult.prototype': ToolResult.prototype,
  };
  for (const params of paramsClasses) {
    targets[`${params.name}.prototype`] = params.prototype as object;
    targets[params.name] = params;
  }
  return fingerprint(targets);
}

/** A ScriptedAdapter that hands some calls' arguments over already decoded, as an SDK adapter may. */
class DecodingAdapter extends ScriptedAdapter {
  constructor(
    turns: readonly ScriptedTurn[],
    private readonly decoded: ReadonlyMap<string, unknown>,
  ) {
    super(turns);
  }

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await super.request(request);
    if (this.decoded.size === 0) return turn;
    return {
      ...turn,
      toolCalls: (turn.toolCalls ?? []).map((call) =>
        this.decoded.has(call.callId)
          ? { ...call, arguments: this.decoded.get(call.callId) }
          : call,
      ),
    };
  }
}

/** The behaviours a test planned, in the form the dispatch prompt's tools read. */
function behaviourOf(call: CallPlan): PlannedBehaviour | undefined {
  if (
    call.returns === undefined &&
    call.throws === undefined &&
    call.subscriberThrows === undefined
  )
    return undefined;
  return {
    ...(call.returns === undefined ? {} : { returns: call.returns.make }),
    ...(call.throws === undefined ? {} : { throws: call.throws.make }),
    ...(call.subscriberThrows === undefined
      ? {}
      : { subscriberThrows: call.subscriberThrows.make }),
    async: call.async ?? false,
  };
}

/**
 * Runs `plan` with `runtime` and reports how each call ended and which
 * promises broke. `prototypes` is the fingerprint to compare against after
 * the run (see {@link guardedPrototypes}).
 */
export async function runPlannedEvaluation(
  runtime: AffordanceRuntime,
  plan: EvaluationPlan,
  prototypes: Fingerprint,
): Promise<EvaluationReport> {
  const session = new Session();
  const behaviours = new Map<string, PlannedBehaviour>();
  const decoded = new Map<string, unknown>();
  const expected: string[] = [];
  const turns: ScriptedTurn[] = plan.map((calls) => ({
    toolCalls: calls.map((call) => {
      const callId = `call_${expected.length}${call.idSuffix}`;
      expected.push(callId);
      const behaviour = behaviourOf(call);
      if (behaviour !== undefined) behaviours.set(callId, behaviour);
      if (call.decoded === true) {
        decoded.set(callId, typeof call.args === 'object' ? call.args.make() : call.args);
        return { name: call.name, callId };
      }
      const args = typeof call.args === 'object' ? (call.args.make() as string) : call.args;
      return args === undefined
        ? { name: call.name, callId }
        : { name: call.name, callId, arguments: args };
    }),
  }));
  turns.push({ text: 'Done.' });
  planBehaviours(session, behaviours);

  const invoked: string[] = [];
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    invoked.push(String(event.callId));
  });
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    const thrown = plannedBehaviour(session, String(event.callId))?.subscriberThrows;
    if (thrown !== undefined) throw thrown();
  });

  const adapter = new DecodingAdapter(turns, decoded);
  const violations: string[] = [];
  const kinds = new Map<CallKind, number>();
  let longestMessage = 0;
  try {
    const response = await runtime.evaluate(dispatchPrompt, { session, adapter });
    adapter.assertDone();
    const messages = (adapter.requests.at(-1)?.messages ?? []).flatMap((message) =>
      message.role === 'tool' ? [message.callId] : [],
    );
    if (!sameList(messages, expected)) {
      violations.push(
        `tool messages ${describeIds(messages)} do not match the calls ${describeIds(expected)}`,
      );
    }
    const outcomes = response.toolCalls.map((outcome) => outcome.call.callId);
    if (!sameList(outcomes, expected)) {
      violations.push(
        `response.toolCalls ${describeIds(outcomes)} do not match the calls ${describeIds(expected)}`,
      );
    }
    for (const outcome of response.toolCalls) {
      if (typeof outcome.message !== 'string') {
        violations.push(
          `the model read a ${typeof outcome.message} instead of text for call ${JSON.stringify(outcome.call.callId)}`,
        );
      }
      const kind = kindOf(outcome.result, outcome.message);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (typeof outcome.message === 'string')
        longestMessage = Math.max(longestMessage, outcome.message.length);
    }
  } catch (error) {
    violations.push(`the evaluation rejected: ${describeThrown(error)}`);
  }
  if (!sameList(invoked, expected)) {
    violations.push(
      `ToolInvoked events ${describeIds(invoked)} do not match the calls ${describeIds(expected)}`,
    );
  }
  for (const change of changesSince(prototypes)) violations.push(change);
  return { calls: expected.length, kinds, longestMessage, violations };
}

function kindOf(result: ToolResult, message: unknown): CallKind {
  if (typeof message !== 'string') return 'message not a string';
  if (result.success) return 'success';
  if (message.startsWith('Unknown tool')) return 'unknown tool';
  if (message.startsWith('Tool validation failed')) return 'invalid arguments';
  if (message.startsWith('Reducer errors prevented')) return 'recording failed';
  if (message.startsWith('Interrupted')) return 'interrupted';
  if (/^Tool '[^']*' execution failed/.test(message)) return 'handler threw';
  return 'tool error';
}

function sameList(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && actual.every((id, index) => id === expected[index]);
}

function describeIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 6).map((id) => JSON.stringify(id));
  return `[${shown.join(', ')}${ids.length > 6 ? `, … ${ids.length} in all` : ''}]`;
}

/** A short description of anything thrown, which never throws itself. */
export function describeThrown(error: unknown): string {
  try {
    const text =
      error instanceof Error
        ? `${error.name}: ${error.message}`
        : `${typeof error} ${String(error)}`;
    return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
  } catch {
    return `${Object.prototype.toString.call(error)} (which cannot be described)`;
  }
}

/**
 * Runtime options of the dispatch properties and the fuzzer: they are about what
 * happens to tool calls, so the cap on one provider answer (`maxAnswerChars`,
 * tested in answer-limit.test.ts) is lifted and a turn of 10 MB arguments
 * reaches the tools instead of failing the turn.
 */
export const dispatchRuntimeOptions = Object.freeze({
  maxAnswerChars: Number.MAX_SAFE_INTEGER,
  // The plans repeat failing calls on purpose; the loop governor (tested on its own) would stop them.
  governor: Object.freeze({ enabled: false }),
});
