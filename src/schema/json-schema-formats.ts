import { isDateString, isEmail, isFQDN, isIP, isURL } from 'class-validator';

const uriOptions = { require_protocol: true, require_tld: false, require_valid_protocol: false };
const isoOptions = { strict: true, strictSeparator: true };
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([zZ]|[+-]\d\d:\d\d)$/;
const fullDate = /^(\d{4})-(\d\d)-(\d\d)$/;
const fullTime = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([zZ]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a calendar date `YYYY-MM-DD` that exists (leap years counted). */
function isFullDate(text: string): boolean {
  const [, year, month, day] = fullDate.exec(text) ?? [];
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/**
 * The `format` values JSON Schema params validate, each a check of a string
 * in linear time (fixed patterns and class-validator's validators): `email`,
 * `uri` (a scheme and a host), `date-time` (RFC 3339, no leap seconds),
 * `date`, `time`, `hostname`, `ipv4`, `ipv6` and `uuid`. Any other format is
 * refused when the schema is compiled, never ignored. @internal
 */
export const jsonSchemaFormats: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ['email', (text: string) => isEmail(text)],
  ['uri', (text: string) => isURL(text, uriOptions)],
  ['date-time', (text: string) => rfc3339.test(text) && isDateString(text, isoOptions)],
  ['date', isFullDate],
  ['time', (text: string) => fullTime.test(text)],
  ['hostname', (text: string) => isFQDN(text, { require_tld: false })],
  ['ipv4', (text: string) => isIP(text, 4)],
  ['ipv6', (text: string) => isIP(text, 6)],
  ['uuid', (text: string) => uuid.test(text)],
]);
