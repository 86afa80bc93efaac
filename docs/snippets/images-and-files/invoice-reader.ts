import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  Describe,
  MarkdownSection,
  Media,
  MediaReference,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

// #region params
class ReadInvoiceParams {
  @MediaReference()
  @IsString()
  @Describe('The invoice to read: its file name or hash')
  invoice!: string;
}

/** A claims desk whose `read_invoice` tool takes a file the user attached. */
export function claimsDesk(extractTotal: (pdf: Uint8Array) => string): Prompt {
  const readInvoice = new ToolDefinition({
    name: 'read_invoice',
    description: 'Read the total of an invoice the customer attached.',
    params: ReadInvoiceParams,
    readOnly: true,
    handler: (params: ReadInvoiceParams, context) => {
      const pdf = context.media(params.invoice); // the MediaPart, bytes loaded from the BlobStore
      return ToolResult.ok(
        null,
        `${pdf.filename ?? pdf.hash}: total ${extractTotal(pdf.bytes ?? new Uint8Array())}.`,
      );
    },
  });
  return new Prompt({
    ns: 'docs',
    key: 'claims-desk',
    sections: [
      new MarkdownSection({
        key: 'claims',
        title: 'Claims',
        template: 'Check the invoice the customer attached.',
        tools: [readInvoice],
      }),
    ],
  });
}
// #endregion params

/** The messages the model read back from `read_invoice`, one per call. */
export async function readInvoices(
  invoicePdf: Uint8Array,
  references: readonly string[],
  extractTotal: (pdf: Uint8Array) => string,
): Promise<readonly string[]> {
  const agent = createTestRuntime({
    script: [
      {
        toolCalls: references.map((invoice) => ({ name: 'read_invoice', arguments: { invoice } })),
      },
      { text: 'Done.' },
    ],
  });
  const session = new Session();
  // #region evaluate
  await agent.evaluate(claimsDesk(extractTotal), {
    session,
    input: [
      Media.text('My refund claim, invoice attached.'),
      Media.file(invoicePdf, { filename: 'invoice-42.pdf' }),
    ],
  });
  // #endregion evaluate
  return session
    .slice(ToolInvoked)
    .all()
    .map((event) => event.result.message);
}
