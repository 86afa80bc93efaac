import {
  Equals,
  IsDateString,
  IsEmail,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

import { Describe } from '../../../src/decorators/describe.js';
import type { ZooEntry } from './zoo-entry.js';

/** String formats and lengths, numeric bounds, IsIn, Equals, IsNotEmpty and a default value. */
export class ContactParams {
  @Describe('Contact id') @IsUUID() id!: string;
  @IsEmail() email!: string;
  @Describe('Display name') @IsString() @IsNotEmpty() @MaxLength(80) name!: string;
  @IsString() @Length(2, 2) country!: string;
  @IsOptional() @IsString() @MinLength(10) bio?: string;
  @IsDateString() since!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsNumber() @IsPositive() score!: number;
  @IsNumber() @IsNegative() @Min(-100) debt!: number;
  @IsIn(['email', 'phone', 'post']) channel!: string;
  @Equals('v1') version!: string;
  @IsOptional() @IsInt() @Min(1) pageSize = 20;
}

const contact = {
  id: '8a1c3a86-2f43-4c59-9a57-3d5d3f7e1b2c',
  email: 'ada@example.com',
  name: 'Ada',
  country: 'GB',
  since: '2024-05-01T10:00:00Z',
  age: 36,
  score: 0.5,
  debt: -3,
  channel: 'email',
  version: 'v1',
};

export const contactZoo: ZooEntry = {
  name: 'contact',
  params: ContactParams,
  valid: [contact, { ...contact, bio: 'Mathematician.', pageSize: 50 }],
  invalid: [
    { ...contact, id: 'not-a-uuid' },
    { ...contact, email: 'ada' },
    { ...contact, name: '' },
    { ...contact, name: 'x'.repeat(81) },
    { ...contact, country: 'GBR' },
    { ...contact, bio: 'short' },
    { ...contact, since: 'yesterday' },
    { ...contact, age: -1 },
    { ...contact, age: 151 },
    { ...contact, age: '36' },
    { ...contact, score: 0 },
    { ...contact, debt: 0 },
    { ...contact, debt: -101 },
    { ...contact, channel: 'fax' },
    { ...contact, version: 'v2' },
    { ...contact, pageSize: 0 },
  ],
};
