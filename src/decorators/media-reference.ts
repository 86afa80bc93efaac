import { ConfigurationError } from '../core/errors/configuration-error.js';
import { recordMediaReference } from '../metadata/media-reference-metadata.js';

/**
 * Marks a string field of a tool's params class as a reference to a media
 * part of the evaluation: an image, file or audio clip of its input or of an
 * earlier tool result. The model passes the part's hash (`sha256:<hex>`, or
 * its first 12 hex digits), or the part's file name. Before the handler runs
 * the runtime resolves the reference and loads the bytes from the runtime's
 * `BlobStore`; the handler reads the part with `context.media(params.field)`.
 * A reference that names no part of the evaluation fails the call with a
 * tool validation message that lists the known references, so the model can
 * correct it. Combine it with class-validator's `@IsString()` (and
 * `@IsOptional()` for an optional field).
 *
 * @example
 * class ReadInvoiceParams {
 *   @MediaReference() @IsString() @Describe('The invoice: its hash or file name') invoice!: string;
 * }
 * // in the handler: const pdf = context.media(params.invoice); // a MediaPart with its bytes
 */
export function MediaReference(): PropertyDecorator {
  return (target, property) => {
    const owner = (target as { constructor: { name: string } }).constructor;
    if (typeof property !== 'string') {
      throw new ConfigurationError({
        subject: `${owner.name}.${String(property)}`,
        problem: '@MediaReference only applies to string-named fields.',
        fix: 'Put @MediaReference() on a string field of the params class, e.g. `@MediaReference() @IsString() photo!: string`.',
      });
    }
    recordMediaReference(owner, property);
  };
}
