import { getEventListeners } from 'node:events';

import { withChildSignal } from '../../src/provider/transport/child-signal.js';

describe(withChildSignal, () => {
  it('should abort the child signal with the parent reason while the work runs', async () => {
    const parent = new AbortController();
    const reason = new Error('deadline');

    const seen = await withChildSignal(parent.signal, (signal) => {
      parent.abort(reason);
      return Promise.resolve([signal.aborted, signal.reason as unknown]);
    });

    expect(seen).toEqual([true, reason]);
  });

  it('should leave no listener on the parent once the work is done, however many times it runs', async () => {
    const parent = new AbortController();

    for (let attempt = 0; attempt < 25; attempt++) {
      await withChildSignal(parent.signal, (signal) => {
        // What the OpenAI SDK does with the signal of every request: a listener it never removes.
        signal.addEventListener('abort', () => undefined, { once: true });
        return Promise.resolve();
      });
    }

    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it('should hand over an aborted signal when the parent is already aborted', async () => {
    const parent = new AbortController();
    parent.abort(new Error('cancelled'));

    const aborted = await withChildSignal(parent.signal, (signal) =>
      Promise.resolve(signal.aborted),
    );

    expect(aborted).toBe(true);
  });
});
