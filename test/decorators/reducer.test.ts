import { Reducer } from '../../src/decorators/reducer.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { readReducerMethods } from '../../src/metadata/reducer-metadata.js';

class Opened {}
class Closed {}

describe(Reducer, () => {
  it('should record which method reduces which event', () => {
    class Door {
      @Reducer(Opened) open(): this {
        return this;
      }
      @Reducer(Closed) close(): this {
        return this;
      }
    }
    expect([...readReducerMethods(Door)]).toEqual([
      [Opened, 'open'],
      [Closed, 'close'],
    ]);
  });

  it('should let a subclass replace an inherited reducer and keep the others', () => {
    class Door {
      @Reducer(Opened) open(): this {
        return this;
      }
      @Reducer(Closed) close(): this {
        return this;
      }
    }
    class LoudDoor extends Door {
      @Reducer(Opened) openLoudly(): this {
        return this;
      }
    }
    expect(readReducerMethods(LoudDoor)).toEqual(
      new Map<unknown, string>([
        [Opened, 'openLoudly'],
        [Closed, 'close'],
      ]),
    );
    expect(readReducerMethods(Door).get(Opened)).toBe('open');
  });

  it('should reject two methods for the same event, naming both', () => {
    expect(() => {
      class Door {
        @Reducer(Opened) open(): this {
          return this;
        }
        @Reducer(Opened) alsoOpen(): this {
          return this;
        }
      }
      return Door;
    }).toThrow('Door.alsoOpen: Door.open already reduces Opened.');
  });

  it('should reject a missing event class, e.g. from a circular import', () => {
    expect(() => {
      class Door {
        @Reducer(undefined as never) open(): this {
          return this;
        }
      }
      return Door;
    }).toThrow(/check for a circular import/);
  });

  it('should reject static methods', () => {
    let error: unknown;
    try {
      class Door {
        @Reducer(Opened) static open(): void {
          // never called: decorating must fail
        }
      }
      expect(Door).toBeUndefined();
    } catch (caught) {
      error = caught;
    }
    expect(ConfigurationError.is(error)).toBe(true);
    expect((error as Error).message).toContain('cannot decorate a static method');
  });
});
