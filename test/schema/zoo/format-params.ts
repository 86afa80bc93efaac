import {
  IsAlpha,
  IsAlphanumeric,
  IsDateString,
  IsEmail,
  IsFQDN,
  IsHexColor,
  IsIP,
  IsISO31661Alpha2,
  IsISO8601,
  IsJSON,
  IsLocale,
  IsLowercase,
  IsMongoId,
  IsNumberString,
  IsOptional,
  IsSemVer,
  IsString,
  IsTimeZone,
  IsUppercase,
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

/** Mostly `valid`, sometimes one of `tricky`: the class must still accept enough generated calls. */
function mostly(valid: fc.Arbitrary<string>, tricky: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: valid, weight: 19 }, { arbitrary: tricky, weight: 1 });
}

/** The other string formats compiled the same way, each optional. */
export class MoreFormatParams {
  @IsOptional() @IsIP(4) ipv4?: string;
  @IsOptional() @IsIP() ip?: string;
  @IsOptional() @IsFQDN() host?: string;
  @IsOptional() @IsNumberString({ no_symbols: true }) digits?: string;
  @IsOptional() @IsNumberString() amount?: string;
  @IsOptional() @IsAlpha('en-GB') word?: string;
  @IsOptional() @IsAlphanumeric() code?: string;
  @IsOptional() @IsLowercase() slug?: string;
  @IsOptional() @IsUppercase() shout?: string;
  @IsOptional() @IsHexColor() color?: string;
  @IsOptional() @IsMongoId() objectId?: string;
  @IsOptional() @IsISO31661Alpha2() country?: string;
  @IsOptional() @IsLocale() locale?: string;
  @IsOptional() @IsTimeZone() timeZone?: string;
  @IsOptional() @IsSemVer() version?: string;
  @IsOptional() @IsJSON() payload?: string;
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

export const moreFormatsEntry: FastPathEntry = {
  name: 'more formats',
  params: MoreFormatParams,
  compilable: true,
  valid: fc.record(
    {
      ipv4: mostly(fc.ipV4(), fc.ipV6()),
      ip: mostly(fc.oneof(fc.ipV4(), fc.ipV6()), fc.constantFrom('256.0.0.1', '1.2.3')),
      host: mostly(fc.domain(), fc.constantFrom('localhost', 'example.com.', '-bad.example')),
      digits: mostly(fc.nat().map(String), fc.constantFrom('-1', '1.5', '', '1e3')),
      amount: mostly(
        fc.integer().map(String),
        fc.oneof(fc.double().map(String), fc.constantFrom('+1', '.5', '1,5')),
      ),
      word: mostly(fc.constantFrom('Hello', 'Queue'), fc.constantFrom('héllo', 'two words', '')),
      code: mostly(fc.constantFrom('ABC123', 'x9'), fc.string({ maxLength: 8 })),
      slug: mostly(fc.constantFrom('abc', 'a-b'), fc.string({ maxLength: 8 })),
      shout: mostly(fc.constantFrom('ABC', 'A-B'), fc.string({ maxLength: 8 })),
      color: mostly(
        fc.constantFrom('#fff', '#FFFFFF', 'fff'),
        fc.constantFrom('#ffff', '#gggggg', '#1a2b3c4d'),
      ),
      objectId: mostly(
        fc.constant('507f1f77bcf86cd799439011'),
        fc.oneof(fc.constantFrom('507f1f77bcf86cd79943901', 'z07f1f77bcf86cd799439011'), fc.uuid()),
      ),
      country: mostly(fc.constantFrom('GB', 'US'), fc.constantFrom('gb', 'XX', 'GBR')),
      locale: mostly(
        fc.constantFrom('en', 'en-GB'),
        fc.constantFrom('en_GB', 'zz-ZZZZ', 'english'),
      ),
      timeZone: mostly(
        fc.constantFrom('UTC', 'Europe/London', 'America/New_York'),
        fc.constantFrom('Mars/Base', 'utc', ''),
      ),
      version: mostly(
        fc.constantFrom('1.2.3', '1.2.3-rc.1+build.5'),
        fc.constantFrom('1.2', 'v1.2.3', '01.2.3'),
      ),
      payload: mostly(fc.json({ maxDepth: 2 }), fc.constantFrom('{a:1}', '', 'undefined')),
    },
    { requiredKeys: [] },
  ),
};
