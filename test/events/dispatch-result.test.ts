import { DispatchResult } from '../../src/session/dispatch-result.js';

class Ping {}

describe(DispatchResult, () => {
  describe('.raiseIfErrors', () => {
    it('should do nothing when every handler succeeded', () => {
      const result = new DispatchResult({ event: new Ping(), handlersInvoked: [() => undefined] });
      expect(() => {
        result.raiseIfErrors();
      }).not.toThrow();
    });

    it('should throw an AggregateError of every failure, naming the event and the handlers', () => {
      const first = new Error('first');
      const second = new TypeError('second');
      function logEvent(): void {
        // a named subscriber
      }
      function countPlan(): void {
        // a named reducer
      }
      const result = new DispatchResult({
        event: new Ping(),
        handlersInvoked: [logEvent],
        errors: [
          { source: 'subscriber', handler: logEvent, error: first },
          { source: 'reducer', handler: countPlan, error: second, slice: Ping },
        ],
      });

      let thrown: unknown;
      try {
        result.raiseIfErrors();
      } catch (error) {
        thrown = error;
      }

      expect(thrown).toBeInstanceOf(AggregateError);
      const aggregate = thrown as AggregateError;
      expect(aggregate.errors).toEqual([first, second]);
      expect(aggregate.message).toBe(
        'Errors while dispatching Ping: subscriber logEvent failed with Error: first; ' +
          'reducer countPlan on slice Ping failed with TypeError: second',
      );
    });
  });

  it('should be immutable', () => {
    const result = new DispatchResult({ event: new Ping() });
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.errors)).toBe(true);
  });
});
