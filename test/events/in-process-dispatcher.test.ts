import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { InProcessDispatcher } from '../../src/session/in-process-dispatcher.js';

class Ping {
  constructor(readonly n: number) {}
}
class LoudPing extends Ping {}
class Pong {}

describe(InProcessDispatcher, () => {
  describe('.dispatch', () => {
    it('should call the handlers of the exact class in subscription order', () => {
      const dispatcher = new InProcessDispatcher();
      const calls: string[] = [];
      const first = (event: Ping) => calls.push(`first ${event.n}`);
      const second = (event: Ping) => calls.push(`second ${event.n}`);
      dispatcher.subscribe(Ping, first);
      dispatcher.subscribe(Ping, second);
      dispatcher.subscribe(Pong, () => calls.push('pong'));

      const result = dispatcher.dispatch(new Ping(1));

      expect(calls).toEqual(['first 1', 'second 1']);
      expect(result.handlersInvoked).toEqual([first, second]);
      expect(result.handledCount).toBe(2);
      expect(result.ok).toBe(true);
    });

    it('should not match subclasses or base classes', () => {
      const dispatcher = new InProcessDispatcher();
      const seen: string[] = [];
      dispatcher.subscribe(Ping, () => seen.push('ping'));
      dispatcher.subscribe(LoudPing, () => seen.push('loud'));

      dispatcher.dispatch(new LoudPing(1));
      dispatcher.dispatch(new Ping(2));

      expect(seen).toEqual(['loud', 'ping']);
    });

    it('should record a failing handler and still run the ones after it', () => {
      const dispatcher = new InProcessDispatcher();
      const boom = new Error('boom');
      const calls: string[] = [];
      function failing(): void {
        calls.push('failing');
        throw boom;
      }
      const after = () => calls.push('after');
      dispatcher.subscribe(Ping, failing);
      dispatcher.subscribe(Ping, after);

      const result = dispatcher.dispatch(new Ping(1));

      expect(calls).toEqual(['failing', 'after']);
      expect(result.ok).toBe(false);
      expect(result.handlersInvoked).toEqual([failing, after]);
      expect(result.errors).toEqual([{ source: 'subscriber', handler: failing, error: boom }]);
    });

    it('should record a handler that returns a promise as a failure without an unhandled rejection', async () => {
      const dispatcher = new InProcessDispatcher();
      async function asyncHandler(): Promise<void> {
        await Promise.resolve();
        throw new Error('late');
      }
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- an async handler is what is under test
      dispatcher.subscribe(Ping, asyncHandler);

      const result = dispatcher.dispatch(new Ping(1));
      await new Promise((resolve) => setImmediate(resolve));

      expect(result.errors).toHaveLength(1);
      const error = result.errors[0]?.error;
      expect(ConfigurationError.is(error)).toBe(true);
      expect((error as Error).message).toContain('asyncHandler');
      expect((error as Error).message).toContain('must be synchronous');
    });

    it('should return an empty, ok result when nobody listens', () => {
      const result = new InProcessDispatcher().dispatch(new Pong());
      expect(result.ok).toBe(true);
      expect(result.handlersInvoked).toEqual([]);
    });

    it('should not let a handler that subscribes another change the dispatch in progress', () => {
      const dispatcher = new InProcessDispatcher();
      const calls: string[] = [];
      const late = () => calls.push('late');
      dispatcher.subscribe(Ping, () => {
        calls.push('early');
        dispatcher.subscribe(Ping, late);
      });

      dispatcher.dispatch(new Ping(1));
      expect(calls).toEqual(['early']);
      dispatcher.dispatch(new Ping(2));
      expect(calls).toEqual(['early', 'early', 'late']);
    });
  });

  describe('.subscribe', () => {
    it('should ignore a second subscription of the same handler', () => {
      const dispatcher = new InProcessDispatcher();
      let count = 0;
      const handler = () => count++;
      dispatcher.subscribe(Ping, handler);
      dispatcher.subscribe(Ping, handler);

      dispatcher.dispatch(new Ping(1));

      expect(count).toBe(1);
      expect(dispatcher.subscriberCount(Ping)).toBe(1);
    });

    it('should return a function that unsubscribes', () => {
      const dispatcher = new InProcessDispatcher();
      let count = 0;
      const off = dispatcher.subscribe(Ping, () => count++);
      expect(off()).toBe(true);
      dispatcher.dispatch(new Ping(1));
      expect(count).toBe(0);
      expect(off()).toBe(false);
    });

    it('should reject something that is not a class and a function', () => {
      const dispatcher = new InProcessDispatcher();
      expect(() => dispatcher.subscribe(Ping, 'nope' as never)).toThrow(ConfigurationError);
    });
  });

  describe('.unsubscribe', () => {
    it('should remove only the given handler and report whether it was there', () => {
      const dispatcher = new InProcessDispatcher();
      const calls: string[] = [];
      const a = () => calls.push('a');
      const b = () => calls.push('b');
      dispatcher.subscribe(Ping, a);
      dispatcher.subscribe(Ping, b);

      expect(dispatcher.unsubscribe(Ping, a)).toBe(true);
      expect(dispatcher.unsubscribe(Ping, a)).toBe(false);
      expect(dispatcher.unsubscribe(Pong, b)).toBe(false);
      dispatcher.dispatch(new Ping(1));

      expect(calls).toEqual(['b']);
    });
  });
});
