import { Container, injectable } from 'inversify';

import { AffordanceError } from '../../src/core/errors/affordance-error.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { ToolValidationError } from '../../src/core/errors/tool-validation-error.js';

describe('AffordanceError', () => {
  describe('.is', () => {
    it('should recognise any affordance error on the base class', () => {
      expect(AffordanceError.is(new ToolValidationError('bad'))).toBe(true);
      expect(AffordanceError.is(new Error('plain'))).toBe(false);
      expect(AffordanceError.is(null)).toBe(false);
    });

    it('should check the code when called on a subclass', () => {
      const error = new ToolValidationError('bad');
      expect(ToolValidationError.is(error)).toBe(true);
      expect(PromptValidationError.is(error)).toBe(false);
    });

    it('should recognise an error from another copy of the package by its brand', () => {
      const foreign = Object.assign(new Error('copy'), {
        code: 'tool_validation',
        [Symbol.for('affordance.error')]: true,
      });
      expect(ToolValidationError.is(foreign)).toBe(true);
      expect(ConfigurationError.is(foreign)).toBe(false);
    });
  });

  it('should keep the cause and name the subclass', () => {
    const cause = new Error('root');
    const error = new ConfigurationError({
      subject: 'X.y',
      problem: 'Broken.',
      fix: 'Mend it.',
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('ConfigurationError');
    expect(error.message).toBe('X.y: Broken. Fix: Mend it.');
  });

  it('should list every tool validation issue with its path', () => {
    const error = new ToolValidationError([
      { path: 'address.zip', message: 'must match /^\\d{5}$/' },
      { path: '', message: 'too many keys' },
    ]);
    expect(error.message).toBe('address.zip: must match /^\\d{5}$/; too many keys');
  });

  it('should run alongside inversify in ESM mode', () => {
    @injectable()
    class Service {
      readonly value = 42;
    }
    const container = new Container();
    container.bind(Service).toSelf();
    expect(container.get(Service).value).toBe(42);
  });
});
