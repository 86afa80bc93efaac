import {
  isAlpha,
  isAlphanumeric,
  isDateString,
  isEmail,
  isFQDN,
  isHexColor,
  isIP,
  isISO31661Alpha2,
  isISO8601,
  isJSON,
  isLocale,
  isLowercase,
  isMongoId,
  isNumberString,
  isSemVer,
  isTimeZone,
  isUppercase,
  isURL,
  isUUID,
} from 'class-validator';

/** Makes the check of one string format constraint from its stored arguments. */
type FormatFactory = (args: readonly unknown[]) => (value: unknown) => boolean;

/**
 * A factory for a string format constraint whose stored argument (its
 * options, version or locale, if it takes one) is handed to `validate` as
 * the decorator hands it; a value that is not a string fails, as in each of
 * these functions.
 */
function formatFactory(validate: (value: string, options?: never) => boolean): FormatFactory {
  // `never`: each function takes its own options type; the stored argument is passed through unread.
  return ([options]) =>
    (v) =>
      typeof v === 'string' && validate(v, options as never);
}

/**
 * The string format constraints the compiled path checks, by registered
 * name: class-validator's own function for each, called as its decorator
 * calls it, so the format rules are validator.js's exactly; only the
 * machinery around it is skipped. Confirmed against the registered validator
 * on the probe values before use, like every compiled check. @internal
 */
export const formatChecks: readonly (readonly [string, FormatFactory])[] = [
  ['isDateString', formatFactory(isDateString)],
  ['isIso8601', formatFactory(isISO8601)],
  ['isEmail', formatFactory(isEmail)],
  ['isUrl', formatFactory(isURL)],
  ['isUuid', formatFactory(isUUID)],
  ['isIp', formatFactory(isIP)],
  ['isFqdn', formatFactory(isFQDN)],
  ['isNumberString', formatFactory(isNumberString)],
  ['isAlpha', formatFactory(isAlpha)],
  ['isAlphanumeric', formatFactory(isAlphanumeric)],
  ['isLowercase', formatFactory(isLowercase)],
  ['isUppercase', formatFactory(isUppercase)],
  ['isHexColor', formatFactory(isHexColor)],
  ['isMongoId', formatFactory(isMongoId)],
  ['isISO31661Alpha2', formatFactory(isISO31661Alpha2)],
  ['isLocale', formatFactory(isLocale)],
  ['isTimeZone', formatFactory(isTimeZone)],
  ['isSemVer', formatFactory(isSemVer)],
  ['isJson', formatFactory(isJSON)],
];

/** Probe values for the string formats: one of each that passes, and near misses. @internal */
export const formatProbes: readonly string[] = [
  '2024-05-01',
  '2024-05-01T10:00:00Z',
  '2024-05-01T10:00:00.123+02:00',
  '2024-13-01',
  '2024-02-30',
  'ada@example.com',
  'ada@example',
  '8a1c3a86-2f43-4c59-9a57-3d5d3f7e1b2c',
  '8a1c3a86-2f43-1c59-9a57-3d5d3f7e1b2c',
  '8a1c3a862f434c599a573d5d3f7e1b2c',
  'https://example.com/path?q=1',
  'example.com',
  'ftp://example.com',
  'http://localhost:3000',
  '192.168.0.1',
  '::1',
  '256.1.1.1',
  '-12.5',
  '0x1F',
  'ABC123',
  'abc-123',
  '#1a2B3c',
  '#12345',
  '507f1f77bcf86cd799439011',
  'GB',
  'XX',
  'en-GB',
  'Europe/London',
  'Mars/Base',
  '1.2.3-beta.1',
  '1.2',
  '{"a":[1]}',
  '{a:1}',
];
