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

  it('should abort every run under way when the parent aborts', async () => {
    const parent = new AbortController();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running: AbortSignal[] = [];
    const runs = [0, 1].map(() =>
      withChildSignal(parent.signal, async (signal) => {
        running.push(signal);
        await gate;
        return signal.aborted;
      }),
    );

    parent.abort(new Error('cancelled'));
    release();

    expect(await Promise.all(runs)).toEqual([true, true]);
    expect(running.map((signal) => signal.reason as unknown)).toEqual([
      parent.signal.reason,
      parent.signal.reason,
    ]);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it('should hand over an aborted signal when the parent aborted between runs', async () => {
    const parent = new AbortController();
    await withChildSignal(parent.signal, () => Promise.resolve());
    const reason = new Error('deadline');
    parent.abort(reason);

    const seen = await withChildSignal(parent.signal, (signal) =>
      Promise.resolve([signal.aborted, signal.reason as unknown]),
    );

    expect(seen).toEqual([true, reason]);
  });

  it('should keep the listeners runs leave on their signal under the warning limit, however many runs there are', async () => {
    const parent = new AbortController();
    const signals = new Set<AbortSignal>();

    for (let attempt = 0; attempt < 40; attempt++) {
      await withChildSignal(parent.signal, (signal) => {
        signal.addEventListener('abort', () => undefined, { once: true });
        signals.add(signal);
        return Promise.resolve();
      });
    }

    for (const signal of signals) {
      expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(10);
    }
  });

  it('should still abort a long run after the runs that followed it moved on to a fresh signal', async () => {
    const parent = new AbortController();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let long: AbortSignal | undefined;
    const run = withChildSignal(parent.signal, async (signal) => {
      long = signal;
      await gate;
      return signal.aborted;
    });
    const later = new Set<AbortSignal>();
    for (let attempt = 0; attempt < 20; attempt++) {
      await withChildSignal(parent.signal, (signal) => {
        later.add(signal);
        return Promise.resolve();
      });
    }

    parent.abort(new Error('cancelled'));
    release();

    expect(await run).toBe(true);
    expect(long?.aborted).toBe(true);
    expect(later.size).toBeGreaterThan(1);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});
