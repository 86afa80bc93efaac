import {
  type EvaluationState,
  EvaluationStateStore,
  InMemoryEvaluationStateStore,
} from 'affordance';

function state(stateId: string): EvaluationState {
  return {
    format: 'affordance.evaluation-state',
    version: 1,
    stateId,
    savedAt: '2026-11-23T00:00:00.000Z',
    evaluationId: `evaluation-${stateId}`,
    prompt: { ns: 'support', key: 'refunds', contractHash: 'abc' },
    adapter: 'scripted',
    session: { sessionId: 'session-1', version: 3 },
    turn: 0,
    maxTurns: 24,
    elapsedMs: 12,
    toolChoice: 'auto',
    usage: null,
    budget: null,
    messages: [{ role: 'system', content: 'Handle refunds.' }],
    remaining: [{ callId: 'c1', name: 'refund_order', arguments: '{"orderId":"A-1"}' }],
    pending: [
      {
        callId: 'c1',
        name: 'refund_order',
        params: { orderId: 'A-1' },
        arguments: '{}',
        reason: 'r',
      },
    ],
    decided: [],
    integrity: { algorithm: 'sha256', digest: 'def' },
  };
}

describe('InMemoryEvaluationStateStore', () => {
  it('is an EvaluationStateStore that hands each state out once, as a copy', async () => {
    const store = new InMemoryEvaluationStateStore();
    expect(store).toBeInstanceOf(EvaluationStateStore);
    const saved = state('s1');
    expect(await store.save(saved)).toBe('s1');
    await store.save(state('s2'));
    expect(store.size).toBe(2);

    const peeked = await store.peek('s1');
    expect(peeked).toEqual(saved);
    expect(peeked).not.toBe(saved);
    expect(store.size).toBe(2);

    const taken = await store.take('s1');
    expect(taken).toEqual(saved);
    expect(await store.take('s1')).toBeUndefined();
    expect(await store.peek('s1')).toBeUndefined();
    expect(store.size).toBe(1);
    expect(await store.take('unknown')).toBeUndefined();
  });

  it('keeps what was saved even when the caller changes its object afterwards', async () => {
    const store = new InMemoryEvaluationStateStore();
    const saved = state('s1') as { turn: number };
    await store.save(saved as unknown as EvaluationState);
    saved.turn = 99;
    expect((await store.take('s1'))?.turn).toBe(0);
  });
});
