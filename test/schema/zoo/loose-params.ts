import {
  Allow,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';

import type { ZooEntry } from './zoo-entry.js';

@ValidatorConstraint({ name: 'isEven' })
export class IsEvenConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }

  defaultMessage(): string {
    return '$property must be an even number';
  }
}

/** What JSON Schema (or strict mode) cannot say: a free-form field, a custom validator, flags, formats. */
export class LooseParams {
  @Allow() meta!: Record<string, unknown>;
  @Validate(IsEvenConstraint) even!: number;
  @IsString() @Matches(/^[a-z]+$/i) code!: string;
  @IsOptional() @IsUrl() homepage?: string;
}

export const looseZoo: ZooEntry = {
  name: 'loose',
  params: LooseParams,
  valid: [
    { meta: { anything: [1, 'two'] }, even: 4, code: 'AbC' },
    { meta: null, even: 0, code: 'x', homepage: 'https://example.com/' },
  ],
  invalid: [
    { even: 2, code: 'x' },
    { meta: 1, even: 2, code: 'x', other: 1 },
  ],
};
