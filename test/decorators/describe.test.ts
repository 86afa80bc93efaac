import { IsString } from 'class-validator';

import { Describe } from '../../src/decorators/describe.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { readFieldDescriptions } from '../../src/metadata/describe-metadata.js';
import { catchError } from '../support/catch-error.js';

class ContactParams {
  @Describe('  Customer email address. ') @IsString() email!: string;
  @Describe('Display name') @IsString() name!: string;
  @IsString() phone!: string;
}

class VipContactParams extends ContactParams {
  @Describe('Name as printed on the VIP card') @IsString() override name = '';
  @Describe('Membership tier') @IsString() tier!: string;
}

describe('Describe', () => {
  describe('when applied to fields', () => {
    it('should record each description, stripped', () => {
      expect([...readFieldDescriptions(ContactParams)]).toEqual([
        ['email', 'Customer email address.'],
        ['name', 'Display name'],
      ]);
    });

    it('should give nothing for a class without descriptions', () => {
      class Bare {
        value = 1;
      }
      expect(readFieldDescriptions(Bare).size).toBe(0);
    });
  });

  describe('when a class extends a described class', () => {
    it('should inherit the base descriptions, override them and add its own', () => {
      const descriptions = readFieldDescriptions(VipContactParams);
      expect(descriptions.get('email')).toBe('Customer email address.');
      expect(descriptions.get('name')).toBe('Name as printed on the VIP card');
      expect(descriptions.get('tier')).toBe('Membership tier');
      expect(descriptions.has('phone')).toBe(false);
    });

    it('should leave the base descriptions unchanged', () => {
      expect(readFieldDescriptions(ContactParams).get('name')).toBe('Display name');
      expect(readFieldDescriptions(ContactParams).has('tier')).toBe(false);
    });
  });

  describe('when the text is empty', () => {
    it.each(['', '   '])('should reject %j, naming Class.field', (text) => {
      const error = catchError(ConfigurationError, () => {
        class Empty {
          @Describe(text) value!: string;
        }
        return Empty;
      });
      expect(error.subject).toBe('Empty.value');
      expect(error.problem).toBe('@Describe needs a non-empty description.');
      expect(error.fix).toContain("@Describe('Customer email address')");
    });
  });

  describe('when applied to a symbol-named field', () => {
    it('should reject it', () => {
      const key = Symbol('secret');
      const error = catchError(ConfigurationError, () => {
        class WithSymbol {
          @Describe('A secret.') [key]!: string;
        }
        return WithSymbol;
      });
      expect(error.problem).toBe('@Describe only applies to string-named fields.');
      expect(error.subject).toBe('WithSymbol.Symbol(secret)');
    });
  });
});
