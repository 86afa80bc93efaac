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
