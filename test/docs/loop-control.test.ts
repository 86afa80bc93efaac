import { repeatFailingCall } from '../../docs/snippets/loop-control/governor.js';

describe('docs/guide/loop-control.md', () => {
  it('governor.ts: stops the repeated failing call after one warning', async () => {
    const stopped = await repeatFailingCall();
    expect(stopped).toEqual({
      reason: 'repeated-failure',
      requests: 3,
      interventions: ['warned: repeated-failure', 'stopped: repeated-failure'],
    });
  });
});

describe('docs/guide/loop-control.md: timeouts and retries', () => {
  it('timeouts.ts: retries the transient failures, recording each attempt', async () => {
    const { quoteFromFlakySupplier } = await import('../../docs/snippets/loop-control/timeouts.js');
    const call = await quoteFromFlakySupplier();
    expect(call.outcome).toBe('success');
    expect(call.attempts).toEqual(['1: threw', '2: threw', '3: returned']);
    expect(call.modelRead).toContain('12.5');
  });

  it('timeouts.ts: stops a call at its timeoutMs and tells the model', async () => {
    const { quoteFromHangingSupplier } =
      await import('../../docs/snippets/loop-control/timeouts.js');
    const call = await quoteFromHangingSupplier();
    expect(call.outcome).toBe('timeout');
    expect(call.modelRead).toContain('timed out after 10000 ms');
  });
});

describe('docs/guide/loop-control.md: guardrails', () => {
  it('guardrails.ts: refuses the denied input with a message for the caller', async () => {
    const { refusedInput } = await import('../../docs/snippets/loop-control/guardrails.js');
    expect(await refusedInput()).toBe(
      'The input matches denied pattern 1 and was not sent to the model.',
    );
  });

  it('guardrails.ts: sends an answer citing nothing back, then accepts the cited one', async () => {
    const { answerAfterRetry } = await import('../../docs/snippets/loop-control/guardrails.js');
    expect(await answerAfterRetry()).toBe('Order A-7 has shipped.');
  });
});
