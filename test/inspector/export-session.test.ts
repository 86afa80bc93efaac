import { ConfigurationError, PromptExecuted, Session, ToolInvoked, ToolResult } from 'affordance';
import { InMemorySessionStore } from 'affordance/durable';
import {
  type ExportedEvent,
  exportSession,
  exportStoredSession,
  readSessionExports,
  SESSION_EXPORT_FORMAT,
} from 'affordance/inspector';
import { createTestRuntime } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { deskPrompt, OrderCancelled, runSupportDesk } from './support-desk-session.js';

const calls = (events: readonly ExportedEvent[]) =>
  events.flatMap((event) => (event.kind === 'tool-call' ? [event] : []));

describe('exportSession', () => {
  it('exports what the session recorded, in order, with rollbacks, denials and the usage of each turn', async () => {
    const run = await runSupportDesk();
    const exported = exportSession(run.session, {
      approvals: [{ pending: run.pending, decisions: run.decisions }],
    });
    expect(exported.format).toBe(SESSION_EXPORT_FORMAT);
    expect(exported.version).toBe(1);
    expect(exported.tags).toMatchObject({ customer: 'c-42' });

    const recorded = run.session.slice(ToolInvoked).all();
    expect(calls(exported.events).map((call) => [call.tool, call.callId, call.outcome])).toEqual(
      recorded.map((event) => [event.name, event.callId, event.outcome]),
    );
    // The failed call's write to the session was undone, and the export says so.
    expect(run.session.slice(OrderCancelled).all()).toEqual([]);
    expect(calls(exported.events).find((call) => call.tool === 'cancel_order')?.rolledBack).toBe(
      true,
    );

    // Each turn's usage is the growth of the evaluation's usage; the turns add up to the answer's total.
    const answer = exported.events.at(-1);
    if (answer?.kind !== 'answer') throw new Error('the answer is not last');
    const total = run.session.slice(PromptExecuted).latest()?.usage;
    expect(answer.usage?.inputTokens).toBe(total?.inputTokens);
    const turns = [...calls(exported.events), answer].flatMap((event) =>
      event.turnUsage === null ? [] : [event.turnUsage.inputTokens ?? 0],
    );
    expect(turns.reduce((sum, tokens) => sum + tokens, 0)).toBe(total?.inputTokens);
    expect(turns).toHaveLength(5); // four turns that called tools, and the answer's

    const [evaluation] = exported.evaluations;
    expect(evaluation).toMatchObject({
      status: 'answered',
      toolCalls: recorded.length,
      failedCalls: recorded.filter((event) => event.outcome !== 'success').length,
    });
    expect(exported.notRecorded.length).toBeGreaterThan(0);
    // Plain JSON: it survives a round trip unchanged.
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
  });

  it('shows calls still waiting for approval as pending entries at the end', async () => {
    const { runtime, adapter } = createTestRuntime({
      script: [
        {
          toolCalls: [
            { callId: 'r1', name: 'refund_order', arguments: { orderId: 'A-1', amountUsd: 80 } },
          ],
        },
      ],
    });
    const session = new Session();
    const paused = await runtime.evaluate(deskPrompt, { session, adapter });
    if (paused.status !== 'interrupted') throw new Error('expected a pause');
    const exported = exportSession(session, {
      approvals: [{ pending: paused.interruption.pending }],
    });
    expect(exported.events.map((event) => event.kind)).toEqual(['prompt-rendered', 'approval']);
    expect(exported.events[1]).toMatchObject({
      kind: 'approval',
      tool: 'refund_order',
      decision: 'pending',
      reason: paused.interruption.pending[0]?.reason,
    });
    expect(exported.evaluations[0]?.status).toBe('unfinished');
  });

  it('writes values JSON has no form for as notes, never failing', () => {
    const session = new Session();
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    session.dispatch(
      new ToolInvoked({
        promptName: 'p',
        promptNs: 'ns',
        promptKey: 'p',
        adapter: 'test',
        name: 'odd',
        result: ToolResult.ok({ big: 12n, map: new Map([['a', 1]]), cycle, when: new Date(0) }),
      }),
    );
    const [call] = calls(exportSession(session).events);
    expect(call?.value).toEqual({
      big: '12n',
      map: [['a', 1]],
      cycle: { name: 'loop', self: '[cycle]' },
      when: '1970-01-01T00:00:00.000Z',
    });
  });

  it('refuses what is not a session, saying what to pass', () => {
    const error = catchError(ConfigurationError, () => exportSession(JSON.parse('{}') as Session));
    expect(error.message).toContain(
      'exportSession: expected a Session, got object. Fix: Pass the session',
    );
  });
});

describe('exportStoredSession', () => {
  it('names a session the store does not have', async () => {
    const error = await catchRejection(ConfigurationError, () =>
      exportStoredSession(new InMemorySessionStore(), 'missing'),
    );
    expect(error.message).toContain('Session "missing": is not stored in this store. Fix:');
  });
});

describe('readSessionExports', () => {
  it('reads back what exportSession wrote, one or a list', async () => {
    const run = await runSupportDesk();
    const exported = exportSession(run.session);
    expect(readSessionExports(JSON.stringify(exported), 'one.json')).toEqual([exported]);
    expect(readSessionExports(JSON.stringify([exported, exported]), 'two.json')).toHaveLength(2);
  });

  it('refuses text that is not JSON, not an export, or of another version, naming the file', () => {
    expect(catchError(ConfigurationError, () => readSessionExports('{', 'a.json')).message).toMatch(
      /^a\.json: is not JSON .* Fix: Write the file with JSON\.stringify\(exportSession\(session\)\)\./,
    );
    expect(
      catchError(ConfigurationError, () => readSessionExports('{"events":[]}', 'b.json')).message,
    ).toContain('b.json: is not a session export');
    const future = JSON.stringify([{ format: SESSION_EXPORT_FORMAT, version: 2 }]);
    expect(
      catchError(ConfigurationError, () => readSessionExports(future, 'c.json')).message,
    ).toContain(
      'c.json, item 0: is a session export of version 2; this inspector reads version 1.',
    );
  });
});
