/**
 * The snippets of docs/guide/storing-media.md, run: the stores built as the
 * page shows, a PDF attached and loaded back by reference through a
 * FilesystemBlobStore, a missing blob refused, and the contract run on a store.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';

import { BlobStore, ConfigurationError, InMemoryBlobStore, type MediaRef } from 'affordance';
import {
  FilesystemBlobStore,
  InMemorySessionStore,
  PostgresBlobStore,
  type PostgresPool,
  PostgresSessionStore,
  RedisBlobStore,
  RedisSessionStore,
} from 'affordance/durable';

import { attachInvoice, TicketAttachments } from '../../docs/snippets/storing-media/attachments.js';
import { checkBlobStore } from '../../docs/snippets/storing-media/own-store.js';
import { screenshotSession } from '../../docs/snippets/storing-media/screenshot-session.js';
import {
  mediaRuntime,
  postgresStores,
  redisStores,
} from '../../docs/snippets/storing-media/stores.js';
import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile } from '../support/media-files.js';

const folders: string[] = [];
const folder = (): string => {
  const made = mkdtempSync(join(tmpdir(), 'affordance-docs-media-'));
  folders.push(made);
  return made;
};
afterAll(async () => {
  for (const made of folders) await rm(made, { recursive: true, force: true });
});

describe('docs: Storing media', () => {
  it('builds the PostgreSQL stores after migrating, and the Redis stores, as the page shows', async () => {
    const statements: string[] = [];
    // A pool that records what applyPostgresMigrations runs (the servers project runs it for real).
    const client = {
      query: (text: string) => {
        statements.push(text);
        return Promise.resolve({ rows: [] });
      },
      release: () => undefined,
    };
    const pool: PostgresPool = { query: client.query, connect: () => Promise.resolve(client) };
    const postgres = await postgresStores(pool);
    expect(postgres.store).toBeInstanceOf(PostgresSessionStore);
    expect(postgres.blobs).toBeInstanceOf(PostgresBlobStore);
    expect(statements.some((text) => text.includes('CREATE TABLE affordance_blobs'))).toBe(true);

    const redis = new Redis({ lazyConnect: true });
    const stores = redisStores(redis);
    expect(stores.store).toBeInstanceOf(RedisSessionStore);
    expect(stores.blobs).toBeInstanceOf(RedisBlobStore);
    redis.disconnect();
  });

  it('attaches a PDF: its bytes in the blob store, its reference in the session, loaded back the same', async () => {
    const store = new InMemorySessionStore();
    const blobs = new FilesystemBlobStore({ directory: folder() });
    const { container, persistence } = mediaRuntime(store, blobs, [TicketAttachments]);
    const pdf = pdfFile();

    const hash = await attachInvoice(persistence, blobs, 'T-7', pdf);

    expect(container.get(BlobStore)).toBe(blobs);
    expect(await blobs.get(hash)).toEqual(pdf);
    const loaded = await persistence.open('T-7');
    const [attachments] = loaded.session.slice(TicketAttachments).all();
    expect(attachments?.files).toEqual([
      {
        type: 'file',
        mediaType: 'application/pdf',
        size: pdf.byteLength,
        hash,
        filename: 'invoice.pdf',
      },
    ] satisfies MediaRef[]);
    // The bytes gone, the session is refused at load, naming the hash.
    await blobs.delete(hash);
    const error = await catchRejection(ConfigurationError, () => persistence.open('T-7'));
    expect(error.message).toContain(`refers to media ${hash} (application/pdf`);
  });

  it("stores a tool's screenshot in the blob store and its reference in the session", async () => {
    const blobs = new FilesystemBlobStore({ directory: folder() });
    const png = pngFile(8, 6);

    const media = await screenshotSession(new InMemorySessionStore(), blobs, png);

    expect(media).toHaveLength(1);
    const [ref] = media ?? [];
    expect([ref?.type, ref?.mediaType, ref?.size]).toEqual(['image', 'image/png', png.byteLength]);
    expect(await blobs.get(ref?.hash ?? '')).toEqual(png);
  });

  it('runs the BlobStore contract on a store', async () => {
    expect(
      await checkBlobStore('FilesystemBlobStore', () =>
        Promise.resolve(new FilesystemBlobStore({ directory: folder() })),
      ),
    ).toEqual([]);
    // The in-process store trusts hashes and keeps the caller's array: the default checks say so.
    const failures = await checkBlobStore('InMemoryBlobStore', () =>
      Promise.resolve(new InMemoryBlobStore()),
    );
    expect(failures).toHaveLength(3);
  });
});
