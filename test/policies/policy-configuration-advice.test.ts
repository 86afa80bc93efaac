import {
  CallBudgetPolicy,
  type CallBudgetPolicyOptions,
  ConfigurationError,
  SequentialDependencyPolicy,
  type SequentialDependencyPolicyOptions,
} from 'affordance';

import { catchError } from '../support/catch-error.js';
import { namedSymbols, type NamedSymbol, unreachable } from '../support/fix-advice.js';

/** Every misuse of the built-in policies' options, each with the policy that refuses it. */
const misuses: [string, () => unknown][] = [
  ...(
    [
      undefined,
      {},
      { requires: [] },
      { requires: {} },
      { requires: { deploy: [] } },
      { requires: { deploy: 'build' } },
      { requires: { 'Not A Tool': ['build'] } },
      { requires: { deploy: [null] } },
      { requires: { deploy: ['build'] }, order: 'strict' },
      { requires: { deploy: ['deploy'] } },
      { requires: { a: ['b'], b: ['a'] } },
    ] as unknown[]
  ).map((options): [string, () => unknown] => [
    `SequentialDependencyPolicy(${JSON.stringify(options)})`,
    () => new SequentialDependencyPolicy(options as SequentialDependencyPolicyOptions),
  ]),
  ...(
    [
      null,
      {},
      { perTool: {} },
      { perTool: 5 },
      { perTool: { 'Not A Tool': 1 } },
      { perTool: { search: 0 } },
      { total: 1.5 },
      { total: '3' },
      { total: 3, budget: 3 },
    ] as unknown[]
  ).map((options): [string, () => unknown] => [
    `CallBudgetPolicy(${JSON.stringify(options)})`,
    () => new CallBudgetPolicy(options as CallBudgetPolicyOptions),
  ]),
];

const label = (symbol: NamedSymbol): string =>
  symbol.member === undefined ? symbol.name : `${symbol.name}.${symbol.member}`;

describe('the ConfigurationErrors of the built-in policies', () => {
  it.each(misuses)('%s: the Fix names only what the entry points export', (_case, misuse) => {
    const error = catchError(ConfigurationError, misuse);
    expect(error.message).toBe(`${error.subject}: ${error.problem} Fix: ${error.fix}`);
    expect(error.subject).toMatch(/^(SequentialDependencyPolicy|CallBudgetPolicy)\b/);
    const symbols = namedSymbols(error.fix);
    expect(symbols.flatMap((symbol) => unreachable(symbol) ?? [])).toEqual([]);
    // Names the fix uses, e.g. the policy in its example, must be among those checked.
    for (const word of error.fix.match(/\b[A-Z][a-z]+[A-Z]\w*/g) ?? []) {
      expect(symbols.map(label)).toContain(word);
    }
  });

  it('checks the names an example in a Fix uses', () => {
    const error = catchError(ConfigurationError, () => new CallBudgetPolicy({}));
    expect(namedSymbols(error.fix).map(label)).toContain('CallBudgetPolicy');
    expect(unreachable({ name: 'CallBudgetPolicy' })).toBeUndefined();
    expect(unreachable({ name: 'CallBudgetTracker' })).toMatch(/not exported/);
  });
});
