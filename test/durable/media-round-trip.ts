/**
 * The media round trip every durable pair of stores must pass: an evaluation
 * whose input holds a screenshot and whose tool answers with a chart and a
 * PDF writes the bytes to the blob store and only references to the session;
 * a fresh persistence loads the events with the same references, and refuses
 * the session, naming the hash, once a blob is gone. Run on PostgreSQL and
 * Redis (test/durable-servers/media-round-trip.test.ts).
 */
import { Container } from 'inversify';

import {
  BlobStore,
  ConfigurationError,
  installAffordance,
  MarkdownSection,
  Media,
  Prompt,
  PromptRendered,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { SessionCodec, SessionPersistence, type SessionStore } from 'affordance/durable';
import { ScriptedAdapter } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile } from '../support/media-files.js';

/** A pair of stores in a namespace of their own. */
export interface MediaStores {
  readonly store: SessionStore;
  readonly blobs: BlobStore;
}

const chart = Media.image(pngFile(12, 8, 0, 0x30));
const report = Media.file(pdfFile('Report: 3 incidents'), { filename: 'report.pdf' });
const screenshot = Media.image(pngFile(20, 10), { filename: 'checkout.png' });

const prompt = new Prompt({
  ns: 'test',
  key: 'media-round-trip',
  sections: [
    new MarkdownSection({
      key: 'reports',
      title: 'Reports',
      template: 'Show reports.',
      tools: [
        new ToolDefinition({
          name: 'show_report',
          description: 'Show the incident report.',
          handler: () => ToolResult.withMedia('The report, with its chart.', [chart, report]),
        }),
      ],
    }),
  ],
});

export function mediaRoundTrip(label: string, open: () => Promise<MediaStores>): void {
  describe(`media in durable sessions: ${label}`, () => {
    it('stores the bytes in the blob store and references in the session, loaded back the same', async () => {
      const { store, blobs } = await open();
      const container = new Container();
      container.bind(BlobStore).toConstantValue(blobs);
      const runtime = installAffordance(container);
      const persistence = () =>
        new SessionPersistence({ store, blobs, codec: new SessionCodec().registerPrompt(prompt) });
      const durable = await persistence().open('s-media');

      await runtime.evaluate(prompt, {
        session: durable.session,
        input: [Media.text('Why did checkout fail?'), screenshot],
        adapter: new ScriptedAdapter([
          { toolCalls: [{ name: 'show_report', arguments: {} }] },
          { text: 'Three incidents.' },
        ]),
      });
      await durable.commit();

      for (const part of [chart, report, screenshot]) {
        expect(await blobs.get(part.hash)).toEqual(part.bytes);
      }
      const loaded = await persistence().open('s-media');
      const [call] = loaded.session.slice(ToolInvoked).all();
      expect(call?.media).toEqual([Media.ref(chart), Media.ref(report)]);
      // The result's parts come back as their references: the bytes stay in the blob store.
      expect(call?.result.parts).toEqual([Media.ref(chart), Media.ref(report)]);
      const rendered = loaded.session.slice(PromptRendered).all();
      expect(rendered.flatMap((event) => event.media)).toContainEqual(Media.ref(screenshot));

      await blobs.delete(report.hash);
      const error = await catchRejection(ConfigurationError, () => persistence().open('s-media'));
      expect(error.problem).toContain(`refers to media ${report.hash} (application/pdf`);
      expect(error.subject).toMatch(/^Session s-media, slice \S+, value \d+$/);
    }, 30_000);
  });
}
