import { ConfigurationError } from 'affordance';

import { requestScopedSection } from '../../src/nest/request-scoped-section.js';
import { catchError } from '../support/catch-error.js';

class BaseDesk {
  inherited(): string {
    return 'from the base';
  }
}

class Desk extends BaseDesk {
  constructor(readonly label: string) {
    super();
  }

  answer(question: string): string {
    return `${this.label}: ${question}`;
  }
}

/** What the stand-in of a `Desk` offers: its methods, returning promises. */
interface ForwardedDesk {
  answer(question: string): Promise<string>;
  inherited(): Promise<string>;
  readonly label: string;
}

describe(requestScopedSection, () => {
  it('should call each method on the instance resolved for that call', async () => {
    const instances = [new Desk('first'), new Desk('second')];
    const standIn = requestScopedSection(Desk, () =>
      Promise.resolve(instances.shift()),
    ) as ForwardedDesk;

    expect(await standIn.answer('hello')).toBe('first: hello');
    expect(await standIn.answer('again')).toBe('second: again');
  });

  it('should forward methods inherited from a base class', async () => {
    const standIn = requestScopedSection(Desk, () =>
      Promise.resolve(new Desk('x')),
    ) as ForwardedDesk;

    expect(await standIn.inherited()).toBe('from the base');
  });

  it('should pass a failed resolution on to the caller', async () => {
    const standIn = requestScopedSection(Desk, () =>
      Promise.reject(new Error('no request')),
    ) as ForwardedDesk;

    await expect(standIn.answer('hello')).rejects.toThrow('no request');
  });

  it('should refuse to read a field, saying why and what to do instead', () => {
    const standIn = requestScopedSection(Desk, () =>
      Promise.resolve(new Desk('x')),
    ) as ForwardedDesk;

    const error = catchError(ConfigurationError, () => standIn.label);

    expect(error.subject).toBe('Desk.label');
    expect(error.problem).toContain('Desk is built by Nest per request');
    expect(error.fix).toContain('Call a method of Desk instead');
  });

  it('should not look like a promise, so awaiting it gives the stand-in itself', async () => {
    const standIn = requestScopedSection(Desk, () => Promise.resolve(new Desk('x')));

    expect(await Promise.resolve(standIn)).toBe(standIn);
    expect(standIn).toBeInstanceOf(Desk);
  });
});
