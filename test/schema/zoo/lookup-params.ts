import { IsBoolean, IsOptional, IsString } from 'class-validator';

import { Describe } from '../../../src/decorators/describe.js';
import type { ZooEntry } from './zoo-entry.js';

/** The params class of the README quickstart: one described string, one optional boolean. */
export class LookupParams {
  @Describe('Global identifier to fetch') @IsString() entityId!: string;
  @IsOptional() @IsBoolean() includeRelated?: boolean;
}

export const lookupZoo: ZooEntry = {
  name: 'lookup',
  params: LookupParams,
  valid: [{ entityId: 'e-1' }, { entityId: '', includeRelated: true }],
  invalid: [
    {},
    { entityId: 5 },
    { entityId: 'e-1', includeRelated: 'yes' },
    { entityId: 'e-1', extra: 1 },
  ],
};
