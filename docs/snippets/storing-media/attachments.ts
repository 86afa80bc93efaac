import { type BlobStore, Media, type MediaRef } from 'affordance';
import { type SessionPersistence } from 'affordance/durable';

// #region attachments
/** Application state that refers to files by reference: a ticket's attachments. */
export class TicketAttachments {
  constructor(
    readonly ticket: string,
    readonly files: readonly MediaRef[],
  ) {}
}

/** Stores an uploaded PDF: the bytes first, then the session value that refers to them. */
export async function attachInvoice(
  persistence: SessionPersistence,
  blobs: BlobStore,
  ticket: string,
  pdf: Uint8Array,
) {
  const invoice = Media.file(pdf, { filename: 'invoice.pdf' }); // checked: the bytes must be a PDF
  await blobs.put(invoice.hash, invoice.bytes ?? new Uint8Array(), invoice.mediaType);
  const durable = await persistence.open(ticket);
  durable.session
    .slice(TicketAttachments)
    .append(new TicketAttachments(ticket, [Media.ref(invoice)]));
  await durable.commit(); // refused, writing nothing, if a referenced blob is not in `blobs`
  return invoice.hash;
}
// #endregion attachments
