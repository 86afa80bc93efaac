import type { FilesystemOperation } from '../core/errors/filesystem-error.js';
import { fsError } from './fs-error.js';

/** Matches a lone surrogate, which cannot be encoded as UTF-8. @internal */
export const loneSurrogate =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws unless `content` is a string that can be encoded as UTF-8. @internal */
export function checkText(operation: FilesystemOperation, path: string, content: unknown): void {
  if (typeof content !== 'string') {
    throw fsError(
      operation,
      path,
      'invalid_text',
      `content must be a string, got ${typeof content}.`,
    );
  }
  if (loneSurrogate.test(content)) {
    throw fsError(
      operation,
      path,
      'invalid_text',
      'content is not valid UTF-8 text (it contains a lone surrogate).',
    );
  }
}
