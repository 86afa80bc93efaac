import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from 'inversify';

import {
  type AffordanceRuntime,
  installAffordance,
  type Prompt,
  Session,
  ToolInvoked,
} from 'affordance';
import type { ProviderAdapter } from 'affordance/provider';
import { type ScriptedTurn, TEST_STATE_SECRET } from 'affordance/testing';

import { type CallLog, OrderSummary, orderDesk } from '../../support/order-desk.js';

const folders: string[] = [];

// The folders of a test file go when its tests are done (registered once, by the file that imports this).
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder for cassette files, removed after the test file's tests. */
export function cassetteFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'affordance-cassette-'));
  folders.push(folder);
  return folder;
}

export function freshRuntime(): AffordanceRuntime {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

/**
 * What the provider answers to the order desk evaluations below: two tool
 * turns then an answer (evaluated), the same first request again answered
 * differently (streamed), and a structured answer.
 */
export const orderScript: readonly ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'lookup_order', arguments: { orderId: 'A-1', includeItems: true }, callId: 'call_a' },
      {
        name: 'annotate',
        arguments: { note: 'asked about A-1', extra: { vip: true } },
        callId: 'call_b',
      },
    ],
    usage: { inputTokens: 120, outputTokens: 30 },
  },
  { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-2' }, callId: 'call_c' }] },
  { text: 'A-1 and A-2 have both shipped.', usage: { inputTokens: 200, outputTokens: 12 } },
  { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'B-7' }, callId: 'call_d' }] },
  { text: 'B-7 has shipped; it should arrive on Tuesday.' },
  { parsed: { orderId: 'B-7', note: 'arrives Tuesday' } },
];

/** What one run of the order desk evaluations showed: answers, tool calls, deltas. */
export interface DeskRun {
  readonly answers: unknown[];
  readonly toolInvoked: unknown[];
  readonly deltas: string[];
  readonly calls: CallLog;
}

/** Evaluates the order desk twice (whole, then streamed) and once with a structured output, through `adapter`. */
export async function runDesk(
  adapter: ProviderAdapter,
  prompt: (log: CallLog) => Prompt = orderDesk,
): Promise<DeskRun> {
  const runtime = freshRuntime();
  const calls: CallLog = [];
  const session = new Session();
  const first = await runtime.evaluate(prompt(calls), { adapter, session });
  const deltas: string[] = [];
  let streamed: unknown;
  for await (const part of runtime.stream(prompt(calls), { adapter, session })) {
    if (part.type === 'text-delta' || part.type === 'tool-arguments-delta') deltas.push(part.delta);
    if (part.type === 'error') throw part.error;
    if (part.type === 'answer') streamed = [part.response.text, part.response.usage];
  }
  const structured = await runtime.evaluate(orderDesk(calls, OrderSummary), { adapter, session });
  const toolInvoked = session
    .slice(ToolInvoked)
    .all()
    .map((event) => [event.name, event.callId, event.rawArguments, event.params, event.outcome]);
  return {
    answers: [[first.text, first.turns, first.usage], streamed, structured.output],
    toolInvoked,
    deltas,
    calls,
  };
}
