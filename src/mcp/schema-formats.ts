import * as cv from 'class-validator';

import { builtin, type Check, custom } from './schema-check.js';

const isString = (v: unknown): v is string => typeof v === 'string';
const uriOptions = { require_protocol: true, require_tld: false, require_valid_protocol: false };
const isoOptions = { strict: true, strictSeparator: true };
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([zZ]|[+-]\d\d:\d\d)$/;
const dateTime = (v: unknown) => isString(v) && cv.isDateString(v, isoOptions) && rfc3339.test(v);
const isoCheck = builtin(dateTime, cv.IsDateString, isoOptions);

/**
 * The checks of the `format` values `paramsClassFromJsonSchema` supports, with
 * class-validator's validators: `isEmail`; `isURL` with a scheme and a host;
 * `isDateString` (strict) with the RFC 3339 shape. @internal
 */
export const formatChecks: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['email', builtin((v) => isString(v) && cv.isEmail(v), cv.IsEmail, undefined)],
  ['uri', builtin((v) => isString(v) && cv.isURL(v, uriOptions), cv.IsUrl, uriOptions)],
  ['date-time', custom('isRfc3339', 'must be an RFC 3339 date-time', dateTime, isoCheck)],
]);
