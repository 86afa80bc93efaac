import { BlobStore, Media, mediaParts, ToolInvoked } from 'affordance';

import { invoicePdf, runMediaAgent } from '../../examples/media/main.js';

describe('examples/media', () => {
  it('should read a screenshot and a PDF offline, open a claim, and record the media by reference', async () => {
    const lines: string[] = [];
    const { response, session, adapter, container, blobs, screenshot, invoice } =
      await runMediaAgent((line) => lines.push(line));
    const output = lines.join('\n');

    // The model's first request carried both files, as parts of the customer's message.
    const first = adapter.requests[0]?.messages.find((message) => message.role === 'user');
    const sent = first?.role === 'user' ? mediaParts(first.content) : [];
    expect(sent.map((part) => [part.hash, part.mediaType, part.filename])).toEqual([
      [screenshot.hash, 'image/png', 'checkout-error.png'],
      [invoice.hash, 'application/pdf', 'invoice-INV-0042.pdf'],
    ]);
    expect(output).toContain(
      `Model received: image/png checkout-error.png (${screenshot.size} bytes), application/pdf invoice-INV-0042.pdf (${invoice.size} bytes)`,
    );
    // The same PDF every run: the example's document is built, not read from disk.
    expect(invoicePdf().hash).toBe(invoice.hash);

    expect(output).toContain(
      'Tool open_claim → success: Claim C-100 opened for INV-0042 (€17.50); its receipt is attached.',
    );
    const [call] = session.slice(ToolInvoked).all();
    expect(call?.media).toHaveLength(1);
    const receipt = call!.media[0]!;
    expect([receipt.type, receipt.mediaType, receipt.filename]).toEqual([
      'image',
      'image/png',
      'C-100-receipt.png',
    ]);
    expect(output).toContain(
      `recorded by reference: image image/png, ${receipt.size} bytes, ${receipt.hash.slice(0, 19)}…`,
    );
    // The bytes of every part are in the runtime's blob store, under their hashes.
    expect(container.get(BlobStore)).toBe(blobs);
    expect(output).toContain(
      `Blob store: 3 blobs, ${screenshot.size + invoice.size + receipt.size} bytes (each part once, by hash)`,
    );
    for (const part of [screenshot, invoice])
      expect(await blobs.get(part.hash)).toEqual(part.bytes);
    const stamp = await blobs.get(receipt.hash);
    expect(stamp === undefined ? undefined : Media.image(stamp).hash).toBe(receipt.hash);
    // The receipt went back to the model with the tool result.
    expect(
      JSON.stringify(adapter.requests[1]?.messages, (_key, value: unknown) =>
        value instanceof Uint8Array ? '<bytes>' : value,
      ),
    ).toContain(receipt.hash);

    expect(response.text).toContain('I opened claim C-100 for invoice INV-0042');
    expect(output).toContain('Answer: I opened claim C-100');
  });
});
