import type {
  ProviderCapabilities,
  ProviderRequest,
  ProviderStreamPart,
  ProviderTurn,
} from 'affordance/provider';
import { providerCapabilities } from 'affordance/provider';
import {
  type AdapterConformanceCheck,
  type AdapterHarness,
  adapterConformanceChecks,
  ScriptedAdapter,
} from 'affordance/testing';

import { HangingScriptedAdapter, scriptedHarness } from './scripted-harness.js';

/** Reads only the first tool call of each answer, as an adapter with a parsing slip might. */
class DropsLaterCalls extends HangingScriptedAdapter {
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await super.request(request);
    return Object.assign({}, turn, { toolCalls: turn.toolCalls?.slice(0, 1) });
  }
}

/** Streams a final turn whose text differs from what `request()` returns. */
class StreamsAnotherTurn extends HangingScriptedAdapter {
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    for await (const part of super.stream(request)) {
      if (part.type !== 'turn') yield part;
      else yield { type: 'turn', turn: Object.assign({}, part.turn, { text: 'Something else.' }) };
    }
  }
}

/** Never reports usage. */
class ForgetsUsage extends HangingScriptedAdapter {
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await super.request(request);
    return Object.assign({}, turn, { usage: undefined });
  }
}

/**
 * Keeps its own objects (a Map) in providerItems and needs them back on the
 * next request: fine within one process, lost when a paused evaluation's
 * state goes through JSON.
 */
class KeepsObjectsInItems extends HangingScriptedAdapter {
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    for (const message of request.messages) {
      if (message.role === 'assistant' && !(message.providerItems[0] instanceof Map)) {
        throw new Error('an assistant message lost the item this adapter keeps');
      }
    }
    const turn = await super.request(request);
    return Object.assign({}, turn, { providerItems: [new Map([['turn', request.turn]])] });
  }
}

/** Reads every answer whole, however long, as if no maxAnswerChars had been asked. */
class IgnoresAnswerLimit extends HangingScriptedAdapter {
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    return await super.request(Object.assign({}, request, { maxAnswerChars: undefined }));
  }
}

/** Declares a seam version this build does not speak. */
class FromTheFuture extends HangingScriptedAdapter {
  override readonly capabilities: ProviderCapabilities = Object.assign(
    {},
    providerCapabilities({ streaming: true }),
    { seamVersion: 2 as 1 },
  );
}

const check = (name: string): AdapterConformanceCheck => {
  const found = adapterConformanceChecks.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no conformance check named '${name}'`);
  return found;
};

const SEAM = 'declares the provider seam version this build speaks';
const LOOP = 'runs a tool loop: parallel calls in order, each result fed back under its call id';
const FAILURES = 'feeds every tool failure back to the model and carries on';
const STRUCTURED = 'parses a structured answer into the output class';
const USAGE = "reports each request's usage, summed over the evaluation";
const BUDGET = 'stops with a budget error when a response goes over the budget';
const DEADLINE = 'stops at the deadline while the provider hangs';
const RESUME =
  'pauses for approval and resumes from its saved JSON state with a fresh adapter, as if it had never stopped';
const WHOLE_ANSWER = 'refuses a whole answer over maxAnswerChars instead of returning it';
const STREAMED_ANSWER = 'ends a stream over maxAnswerChars with an error part naming the limit';
const PARITY =
  'streams the same evaluation it evaluates: same events in order, deltas adding up to the turn';

const harnessOf = (
  name: string,
  Adapter: new (
    script: ConstructorParameters<typeof HangingScriptedAdapter>[0],
    hang: boolean,
  ) => ScriptedAdapter,
): AdapterHarness => scriptedHarness(name, (script, hang) => new Adapter(script, hang));

/** Each broken adapter: the checks it must fail, with what their message must say, and checks it still passes. */
const cases: [string, AdapterHarness, [string, RegExp][], string[]][] = [
  [
    'an adapter that drops all but the first tool call',
    harnessOf('DropsLaterCalls', DropsLaterCalls),
    [
      [
        LOOP,
        /failed for DropsLaterCalls: the calls recorded as \[callId, name, outcome\]: expected .*"call_echo_1".*, got \[\["call_add_1","add","success"\],\["call_add_2","add","success"\]\]\. Fix: read every tool call/,
      ],
      [
        FAILURES,
        /the calls recorded as \[callId, name, outcome\]: expected .*"call_malformed".*, got \[\["call_unknown"/,
      ],
      [PARITY, /the tool calls started, with their argument deltas joined: expected .*"call_echo"/],
    ],
    [SEAM, STRUCTURED, USAGE, BUDGET, DEADLINE],
  ],
  [
    "an adapter whose stream's turn differs from request()",
    harnessOf('StreamsAnotherTurn', StreamsAnotherTurn),
    [
      [
        PARITY,
        /runtime\.stream recorded event 4 of 4 differently from runtime\.evaluate: expected .*Two plus three is five.*, got .*Something else\..*Fix: make stream\(\)'s final 'turn' part equal/,
      ],
    ],
    [SEAM, LOOP, FAILURES, STRUCTURED, USAGE, BUDGET, DEADLINE],
  ],
  [
    'an adapter that never reports usage',
    harnessOf('ForgetsUsage', ForgetsUsage),
    [
      [
        USAGE,
        /the usage of the response: expected \{"inputTokens":30,"outputTokens":13\}, got \{\}\. Fix: return each request's own token counts/,
      ],
      [BUDGET, /expected a PromptEvaluationError in phase 'budget', got one in phase 'request'/],
    ],
    [SEAM, LOOP, FAILURES, STRUCTURED, DEADLINE, PARITY],
  ],
  [
    'an adapter that keeps objects JSON cannot hold in its provider items',
    harnessOf('KeepsObjectsInItems', KeepsObjectsInItems),
    [
      [
        RESUME,
        /failed for KeepsObjectsInItems: the evaluation failed: .*lost the item this adapter keeps/,
      ],
    ],
    [SEAM, LOOP, FAILURES, STRUCTURED, USAGE, BUDGET],
  ],
  [
    'an adapter that ignores maxAnswerChars',
    harnessOf('IgnoresAnswerLimit', IgnoresAnswerLimit),
    [
      [
        WHOLE_ANSWER,
        /failed for IgnoresAnswerLimit: request\(\) returned a turn of 32000 characters though maxAnswerChars was 1000\. Fix: stop reading an answer/,
      ],
    ],
    // The runtime stops a stream at its first delta over the limit, whatever the adapter does.
    [SEAM, LOOP, STREAMED_ANSWER],
  ],
  [
    'an adapter declaring another seam version',
    harnessOf('FromTheFuture', FromTheFuture),
    [
      [
        SEAM,
        /capabilities\.seamVersion: expected 1, got 2\. Fix: declare capabilities with providerCapabilities/,
      ],
      [LOOP, /the evaluation failed: .*seam/i],
    ],
    [],
  ],
];

describe('the conformance checks, run against broken adapters', () => {
  describe.each(cases)('%s', (_name, harness, failing, passing) => {
    it.each(failing)(
      'should fail "%s", saying what was expected and what came',
      async (name, message) => {
        await expect(check(name).run(harness)).rejects.toThrow(message);
      },
    );

    if (passing.length > 0) {
      it.each(passing)('should still pass "%s"', async (name) => {
        await expect(check(name).run(harness)).resolves.toBeUndefined();
      });
    }
  });

  it('should fail the deadline check of a harness that answers instead of hanging', async () => {
    const answersAtOnce = scriptedHarness('AnswersAtOnce', (script) => new ScriptedAdapter(script));

    await expect(check(DEADLINE).run(answersAtOnce)).rejects.toThrow(
      /stops at the deadline while the provider hangs' failed for AnswersAtOnce: request 2 was answered, though the harness was opened with \{ hang: true \} \(it failed: .*the script ran out.*\)\. Fix: in the harness, hold the first request after the script open/,
    );
  });
});
