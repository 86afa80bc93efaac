import 'reflect-metadata';

import {
  BlobStore,
  Deadline,
  InMemoryBlobStore,
  Media,
  type MediaPart,
  mediaParts,
  Prompt,
  Session,
  ToolInvoked,
} from 'affordance';
import type { ProviderRequest } from 'affordance/provider';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { pngImage } from '../shared/png-image.js';
import { ClaimsSection } from './claims-section.js';
import { pdfDocument } from './pdf-document.js';

/** The customer's screenshot: a checkout page with a red error banner (a PNG made here, offline). */
export function checkoutScreenshot(): MediaPart {
  const png = pngImage(160, 100, (_x, y) => (y < 20 ? [220, 38, 38] : [245, 245, 245]));
  return Media.image(png, { filename: 'checkout-error.png' });
}

/** The customer's invoice: a one-page PDF. */
export function invoicePdf(): MediaPart {
  const pdf = pdfDocument([
    'Acme Cloud - Invoice INV-0042',
    'Storage plan, March: 17.50 EUR',
    'Charged twice on 2024-03-02',
  ]);
  return Media.file(pdf, { filename: 'invoice-INV-0042.pdf' });
}

/** The claims agent: reads a screenshot and a PDF, opens a claim. */
export const claimsPrompt = new Prompt({
  ns: 'examples/media',
  key: 'claims',
  sections: [ClaimsSection],
});

/** The media of the customer's message in `request`, as "type name (bytes)" lines. */
function mediaSeen(request: ProviderRequest): string[] {
  const message = request.messages.find((entry) => entry.role === 'user');
  const parts = message?.role === 'user' ? mediaParts(message.content) : [];
  return parts.map((part) => `${part.mediaType} ${part.filename ?? ''} (${part.size} bytes)`);
}

/**
 * The model's side of this offline run, scripted. Its first turn checks that
 * the request carried both files (a model that reads media would see them
 * there), then opens the claim from what they show; its second answers.
 */
export function scriptedModel(seen: string[][]): ScriptedTurn[] {
  return [
    {
      text: 'I have your screenshot and your invoice; opening a claim.',
      expect: (request) => {
        const media = mediaSeen(request);
        seen.push(media);
        if (media.length !== 2)
          throw new Error(`expected 2 files in the request, got ${media.length}`);
      },
      toolCalls: [
        {
          name: 'open_claim',
          arguments: {
            invoice: 'INV-0042',
            amount: 17.5,
            problem: 'The checkout page showed an error banner and the card was charged twice.',
          },
        },
      ],
      usage: { inputTokens: 1850, outputTokens: 62 },
    },
    {
      text: 'I opened claim C-100 for invoice INV-0042 (€17.50): you were charged twice after the checkout error. You will hear from us within two business days.',
      usage: { inputTokens: 2010, outputTokens: 41 },
    },
  ];
}

/**
 * Runs the claims agent offline: a message with a screenshot and a PDF, a
 * tool that answers with a receipt image, and what the session recorded (by
 * reference: hash, media type, size; the bytes are in the runtime's
 * BlobStore). Returns the response, the session and the scripted model.
 */
export async function runMediaAgent(print: (line: string) => void = console.log) {
  const seen: string[][] = [];
  // Where the runtime writes the bytes (a FilesystemBlobStore or PostgresBlobStore in production).
  const blobs = new InMemoryBlobStore();
  const { runtime, adapter, container } = createTestRuntime({
    script: scriptedModel(seen),
    configure: (bound) => {
      bound.bind(ClaimsSection).toSelf().inSingletonScope();
      bound.bind(BlobStore).toConstantValue(blobs);
    },
  });
  const screenshot = checkoutScreenshot();
  const invoice = invoicePdf();
  const session = new Session();
  print('Customer: "I was charged twice after this error. Screenshot and invoice attached."');
  for (const part of [screenshot, invoice]) {
    print(
      `  attached ${part.filename} (${part.mediaType}, ${part.size} bytes, ${part.hash.slice(0, 19)}…)`,
    );
  }

  const response = await runtime.evaluate(claimsPrompt, {
    input: [
      Media.text('I was charged twice after this error. Screenshot and invoice attached.'),
      screenshot,
      invoice,
    ],
    session,
    deadline: Deadline.in(30_000),
  });
  adapter.assertDone();

  print(`Model received: ${seen[0]?.join(', ') ?? 'nothing'}`);
  for (const call of session.slice(ToolInvoked).all()) {
    print(`Tool ${call.name} → ${call.outcome}: ${call.renderedMessage}`);
    for (const ref of call.media) {
      print(
        `  recorded by reference: ${ref.type} ${ref.mediaType}, ${ref.size} bytes, ${ref.hash.slice(0, 19)}…`,
      );
    }
  }
  print(`Blob store: ${blobs.count} blobs, ${blobs.size} bytes (each part once, by hash)`);
  print(`Answer: ${response.text ?? ''}`);
  return { response, session, adapter, container, blobs, screenshot, invoice };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await runMediaAgent();
}
