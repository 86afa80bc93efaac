import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { Session } from '../../src/session/session.js';
import { SliceAccessor } from '../../src/session/slice-accessor.js';
import { SliceOp } from '../../src/session/slice-op.js';
import { SlicePolicy } from '../../src/session/slice-policy.js';

class Step {
  constructor(
    readonly title: string,
    readonly done = false,
  ) {}
}
class Steps implements Iterable<string> {
  constructor(readonly titles: string[]) {}
  [Symbol.iterator](): Iterator<string> {
    return this.titles[Symbol.iterator]();
  }
}

describe(SliceAccessor, () => {
  const steps = (): SliceAccessor<Step> => {
    const slice = new Session().slice(Step);
    slice.seed([new Step('a', true), new Step('b'), new Step('c', true)]);
    return slice;
  };

  describe('.all', () => {
    it('should return every value, oldest first, as a frozen array', () => {
      const all = steps().all();
      expect(all.map((step) => step.title)).toEqual(['a', 'b', 'c']);
      expect(Object.isFrozen(all)).toBe(true);
    });
  });

  describe('.latest', () => {
    it('should return the newest value, or undefined when empty', () => {
      expect(steps().latest()?.title).toBe('c');
      expect(new Session().slice(Step).latest()).toBeUndefined();
    });
  });

  describe('.at', () => {
    it('should index from the start or, when negative, from the end', () => {
      const slice = steps();
      expect(slice.at(0)?.title).toBe('a');
      expect(slice.at(-1)?.title).toBe('c');
      expect(slice.at(3)).toBeUndefined();
    });
  });

  describe('.where', () => {
    it('should return the matching values in order', () => {
      expect(
        steps()
          .where((step) => step.done)
          .map((step) => step.title),
      ).toEqual(['a', 'c']);
    });
  });

  describe('.seed', () => {
    it('should replace the content with one value or many, without running reducers', () => {
      const session = new Session();
      let calls = 0;
      const slice = session.slice(Step).register(Step, (_view, step) => {
        calls++;
        return SliceOp.append(step);
      });
      slice.seed(new Step('one'));
      expect(slice.all()).toEqual([new Step('one')]);
      slice.seed([new Step('x'), new Step('y')]);
      expect(slice.size).toBe(2);
      expect(calls).toBe(0);
    });

    it('should treat an iterable instance of the slice class as one value', () => {
      const slice = new Session().slice(Steps);
      slice.seed(new Steps(['a', 'b']));
      expect(slice.all()).toEqual([new Steps(['a', 'b'])]);
    });

    it('should reject values of another class', () => {
      expect(() => {
        new Session().slice(Step).seed([JSON.parse('{"title":"plain"}') as Step]);
      }).toThrow(ConfigurationError);
    });
  });

  describe('.clear', () => {
    it('should remove matching values, or all of them', () => {
      const slice = steps();
      slice.clear((step) => step.done);
      expect(slice.all().map((step) => step.title)).toEqual(['b']);
      slice.clear();
      expect(slice.size).toBe(0);
    });
  });

  describe('.append', () => {
    it('should dispatch the value through the reducers and the subscribers', () => {
      const session = new Session();
      const seen: Step[] = [];
      session.dispatcher.subscribe(Step, (step) => seen.push(step));
      const result = session.slice(Step).append(new Step('a'));
      expect(result.ok).toBe(true);
      expect(session.slice(Step).all()).toEqual([new Step('a')]);
      expect(seen).toEqual([new Step('a')]);
    });

    it('should reject a value that is not an instance of the slice class', () => {
      expect(() => new Session().slice(Step).append(JSON.parse('{"title":"x"}') as Step)).toThrow(
        /expected an instance of Step/,
      );
    });

    it('should keep every one of many appended values, in order', () => {
      const slice = new Session().slice(Step);
      for (let i = 0; i < 200_000; i++) slice.append(new Step(String(i)));
      expect(slice.size).toBe(200_000);
      expect(slice.at(0)?.title).toBe('0');
      expect(slice.at(123_456)?.title).toBe('123456');
      expect(slice.latest()?.title).toBe('199999');
    });
  });

  describe('.register', () => {
    it('should set the policy when asked', () => {
      const slice = new Session().slice(Step).register(Step, (_v, s) => SliceOp.append(s), {
        policy: SlicePolicy.Log,
      });
      expect(slice.policy).toBe(SlicePolicy.Log);
    });

    it('should reject a reducer that is not a function', () => {
      expect(() => new Session().slice(Step).register(Step, 'x' as never)).toThrow(
        ConfigurationError,
      );
    });
  });

  describe('.setPolicy', () => {
    it('should reject an unknown policy', () => {
      expect(() => new Session().slice(Step).setPolicy('sometimes' as never)).toThrow(
        /unknown policy/,
      );
    });
  });
});
