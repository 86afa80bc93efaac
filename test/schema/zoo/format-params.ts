import {
  IsDateString,
  IsEmail,
  IsISO8601,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';

/** The string formats the compiled fast path checks with class-validator's own functions, options included. */
export class FormatParams {
  @IsUUID() id!: string;
  @IsOptional() @IsUUID('4') requestId?: string;
  @IsEmail() email!: string;
  @IsOptional() @IsEmail({ allow_display_name: true }) replyTo?: string;
  @IsDateString() since!: string;
  @IsOptional() @IsISO8601({ strict: true }) until?: string;
  @IsUrl() homepage!: string;
  @IsOptional() @IsUrl({ require_protocol: true, protocols: ['https'] }) callback?: string;
  @IsOptional() @IsDateString({}, { each: true }) @IsString({ each: true }) holidays?: string[];
}

const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z') })
  .filter((date) => !Number.isNaN(date.getTime()));

export const formatEntry: FastPathEntry = {
  name: 'formats',
  params: FormatParams,
  compilable: true,
  valid: fc.record(
    {
      id: fc.uuid(),
      requestId: fc.oneof(fc.uuid({ version: 4 }), fc.uuid()),
      email: fc.emailAddress(),
      replyTo: fc.oneof(
        fc.emailAddress(),
        fc.emailAddress().map((address) => `Ada <${address}>`),
      ),
      since: fc.oneof(
        isoDate.map((date) => date.toISOString()),
        isoDate.map((date) => date.toISOString().slice(0, 10)),
      ),
      until: fc.oneof(
        isoDate.map((date) => date.toISOString()),
        fc.constantFrom('2024-02-30', '2024-02-29', '2023-02-29T10:00:00Z'),
      ),
      homepage: fc.oneof(fc.webUrl(), fc.constantFrom('example.com', 'localhost:3000')),
      callback: fc.oneof(fc.webUrl({ validSchemes: ['https'] }), fc.webUrl()),
      holidays: fc.array(
        isoDate.map((date) => date.toISOString().slice(0, 10)),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ['id', 'email', 'since', 'homepage'] },
  ),
};
