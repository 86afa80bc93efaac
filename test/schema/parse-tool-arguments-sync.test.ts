import 'reflect-metadata';

import { Type } from 'class-transformer';
import {
  IsString,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import fc from 'fast-check';

import { ConfigurationError, ToolValidationError } from 'affordance';
import {
  parseToolArguments,
  parseToolArgumentsSync,
  type SchemaProfile,
} from 'affordance/provider';

import { fastPathZoo } from './zoo/fast-path-zoo.js';

/** What a parse ended in, comparable with `toEqual`: the instance's class and data, or the error's issues. */
type Outcome =
  | { readonly accepted: string; readonly value: string }
  | { readonly refused: readonly { path: string; message: string }[] }
  | { readonly misconfigured: string };

function describeOutcome(run: () => unknown): Outcome {
  try {
    const value = run();
    if (value instanceof Promise) throw new Error('parseToolArgumentsSync returned a promise');
    return { accepted: (value as object).constructor.name, value: JSON.stringify(value) };
  } catch (error) {
    return errorOutcome(error);
  }
}

async function describeAsyncOutcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = await run();
    return { accepted: (value as object).constructor.name, value: JSON.stringify(value) };
  } catch (error) {
    return errorOutcome(error);
  }
}

function errorOutcome(error: unknown): Outcome {
  if (error instanceof ToolValidationError) {
    return { refused: error.issues.map(({ path, message }) => ({ path, message })) };
  }
  if (error instanceof ConfigurationError) return { misconfigured: error.message };
  throw error;
}

/** Valid arguments, the same with one key dropped, one foreign key, one value of the wrong type, or garbage. */
function argumentsFor(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const nearValid = fc
    .tuple(valid, fc.nat(), fc.constantFrom('drop', 'extra', 'retype'))
    .map(([value, pick, how]) => {
      const keys = Object.keys(value);
      const key = keys[pick % Math.max(keys.length, 1)];
      if (how === 'extra' || key === undefined) return { ...value, unexpected: 1 };
      if (how === 'drop')
        return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
      return { ...value, [key]: typeof value[key] === 'string' ? 42 : 'forty-two' };
    });
  return fc.oneof(valid, nearValid, fc.json(), fc.anything({ maxDepth: 2 }));
}

const profiles: readonly SchemaProfile[] = ['standard', 'openai-strict'];

describe('parseToolArgumentsSync', () => {
  it.each(fastPathZoo.map((entry) => [entry.name, entry] as const))(
    'should end as parseToolArguments does for %s, valid, near-valid and garbage arguments, in both profiles',
    async (_name, entry) => {
      let compared = 0;
      let misconfigured = 0;
      await fc.assert(
        fc.asyncProperty(
          argumentsFor(entry.valid),
          fc.constantFrom(...profiles),
          fc.boolean(),
          async (value, profile, asText) => {
            const raw = asText ? JSON.stringify(value) : value;
            const awaited = await describeAsyncOutcome(() =>
              parseToolArguments(entry.params, raw, { profile }),
            );
            const now = describeOutcome(() =>
              parseToolArgumentsSync(entry.params, raw, { profile }),
            );
            if ('misconfigured' in now) {
              // Only a class with an asynchronous constraint is refused, and the promise form still answers it.
              expect(now.misconfigured).toContain('asynchronous constraint');
              expect('misconfigured' in awaited).toBe(false);
              misconfigured++;
              return;
            }
            expect(now).toEqual(awaited);
            compared++;
          },
        ),
        { numRuns: 60 },
      );
      // A class is refused on every call or on none, whatever the arguments; only `async` has such a constraint.
      expect([compared, misconfigured]).toEqual(entry.name === 'async' ? [0, 60] : [60, 0]);
    },
  );

  it('should answer a valid call and throw a refused one without a promise, on both the compiled and the class-validator path', () => {
    @ValidatorConstraint({ name: 'startsWithA' })
    class StartsWithA implements ValidatorConstraintInterface {
      validate(value: unknown): boolean {
        return typeof value === 'string' && value.startsWith('A');
      }
    }
    class Compiled {
      @IsString() name!: string;
    }
    class Custom {
      @Validate(StartsWithA) name!: string;
    }
    for (const params of [Compiled, Custom]) {
      const parsed = parseToolArgumentsSync(params, '{"name":"Ada"}');
      expect(parsed).toBeInstanceOf(params);
      expect(parsed.name).toBe('Ada');
    }
    expect(() => parseToolArgumentsSync(Custom, '{"name":"Bob"}')).toThrow(ToolValidationError);
    expect(() => parseToolArgumentsSync(Compiled, '{"name":1}')).toThrow(/name/);
    expect(() => parseToolArgumentsSync(Compiled, '{"name":')).toThrow(ToolValidationError);
  });

  it('should refuse a params class with an asynchronous constraint, nested too, naming the field and the promise form', async () => {
    @ValidatorConstraint({ name: 'isKnownUser', async: true })
    class IsKnownUser implements ValidatorConstraintInterface {
      validate(value: unknown): Promise<boolean> {
        return Promise.resolve(value === 'ada');
      }
    }
    class Lookup {
      @Validate(IsKnownUser) user!: string;
    }
    class Request {
      @IsString() reason!: string;
      @ValidateNested() @Type(() => Lookup) lookup!: Lookup;
    }
    let thrown: unknown;
    try {
      parseToolArgumentsSync(Request, { reason: 'audit', lookup: { user: 'ada' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    const message = (thrown as ConfigurationError).message;
    expect(message).toContain('Params class Request');
    expect(message).toContain("'lookup.user'");
    expect(message).toContain('Fix: call parseToolArguments');
    // The fix, followed with the public name it gives:
    const parsed = await parseToolArguments(Request, { reason: 'audit', lookup: { user: 'ada' } });
    expect(parsed.lookup).toBeInstanceOf(Lookup);
    await expect(
      parseToolArguments(Request, { reason: 'audit', lookup: { user: 'bob' } }),
    ).rejects.toThrow(ToolValidationError);
  });

  it('should leave parseToolArguments a promise that rejects, never a throw', async () => {
    class Named {
      @IsString() name!: string;
    }
    let pending: Promise<Named> | undefined;
    expect(() => {
      pending = parseToolArguments(Named, '{"name":');
    }).not.toThrow();
    await expect(pending).rejects.toBeInstanceOf(ToolValidationError);
    await expect(parseToolArguments(Named, { name: 'Ada' })).resolves.toBeInstanceOf(Named);
  });
});
