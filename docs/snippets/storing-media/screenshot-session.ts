import {
  type BlobStore,
  MarkdownSection,
  Media,
  Prompt,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import type { SessionStore } from 'affordance/durable';
import { ScriptedAdapter } from 'affordance/testing';

import { mediaRuntime } from './stores.js';

/** A browser tool that answers with a screenshot (the PNG bytes are given here). */
export function browserPrompt(png: Uint8Array): Prompt {
  const screenshot = new ToolDefinition({
    name: 'screenshot',
    description: 'Take a screenshot of the checkout page.',
    readOnly: true,
    handler: () => ToolResult.withMedia('The checkout page.', [Media.image(png)]),
  });
  return new Prompt({
    ns: 'docs',
    key: 'browser',
    sections: [
      new MarkdownSection({
        key: 'browser',
        title: 'Browser',
        template: 'Look.',
        tools: [screenshot],
      }),
    ],
  });
}

// #region round-trip
/** An evaluation whose tool answers with a screenshot, committed, then loaded in a fresh persistence. */
export async function screenshotSession(store: SessionStore, blobs: BlobStore, png: Uint8Array) {
  const prompt = browserPrompt(png);
  const { runtime, persistence } = mediaRuntime(store, blobs);
  persistence.codec.registerPrompt(prompt);
  const durable = await persistence.open('ticket-7');
  await runtime.evaluate(prompt, {
    session: durable.session,
    adapter: new ScriptedAdapter([
      { toolCalls: [{ name: 'screenshot', arguments: {} }] },
      { text: 'The page shows an error banner.' },
    ]),
  });
  await durable.commit(); // the event holds the screenshot's MediaRef; its bytes are in `blobs`

  const loaded = await mediaRuntime(store, blobs).persistence.open('ticket-7');
  return loaded.session.slice(ToolInvoked).all()[0]?.media; // [{ type: 'image', mediaType: 'image/png', ... }]
}
// #endregion round-trip
