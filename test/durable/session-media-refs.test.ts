/**
 * SessionPersistence with a BlobStore: MediaRefs in session values are stored
 * and loaded as they are, a reference whose bytes are not in the blob store
 * is refused at commit (nothing written) and at load (naming the hash and the
 * fix), and bytes themselves are never stored in a session.
 */
import {
  ConfigurationError,
  InMemoryBlobStore,
  Media,
  type MediaPart,
  type MediaRef,
} from 'affordance';
import { InMemorySessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';

import { catchRejection } from '../support/catch-error.js';
import { pdfFile, pngFile } from '../support/media-files.js';

/** What an application may keep in its own state: the attachments of a ticket, by reference. */
class Attachments {
  constructor(
    readonly ticket: string,
    readonly refs: readonly MediaRef[],
  ) {}
}

const codec = () => new SessionCodec({ classes: [Attachments] });

async function stored(blobs: InMemoryBlobStore, ...parts: MediaPart[]): Promise<void> {
  for (const part of parts) await blobs.put(part.hash, part.bytes!, part.mediaType);
}

describe('SessionPersistence with a BlobStore', () => {
  const screenshot = Media.image(pngFile(4, 3));
  const invoice = Media.file(pdfFile(), { filename: 'invoice.pdf' });
  const linked = Media.image({ url: 'https://example.com/chart.png' });

  it('stores MediaRefs and loads them back the same, checking their bytes are in the blob store', async () => {
    const store = new InMemorySessionStore();
    const blobs = new InMemoryBlobStore();
    await stored(blobs, screenshot, invoice);
    const persistence = new SessionPersistence({ store, codec: codec(), blobs });
    const durable = await persistence.open('s-media');
    const refs = [Media.ref(screenshot), Media.ref(invoice), Media.ref(linked)];
    durable.session.slice(Attachments).append(new Attachments('T-1', refs));
    expect(await durable.commit()).toBe(1);

    // The stored JSON holds the references, never the bytes.
    const json = JSON.stringify((await store.load('s-media'))?.slices);
    expect(json).toContain(screenshot.hash);
    expect(json.length).toBeLessThan(1000);

    const loaded = await new SessionPersistence({ store, codec: codec(), blobs }).open('s-media');
    const [attachments] = loaded.session.slice(Attachments).all();
    expect(attachments).toBeInstanceOf(Attachments);
    expect(attachments?.refs).toEqual(refs);
    expect(await blobs.get(attachments!.refs[1]!.hash)).toEqual(invoice.bytes);
  });

  it('refuses to commit a reference whose bytes are not in the blob store, writing nothing', async () => {
    const store = new InMemorySessionStore();
    const blobs = new InMemoryBlobStore();
    await stored(blobs, screenshot);
    const durable = await new SessionPersistence({ store, codec: codec(), blobs }).open('s-lost');
    durable.session
      .slice(Attachments)
      .append(new Attachments('T-2', [Media.ref(screenshot), Media.ref(invoice)]));

    const error = await catchRejection(ConfigurationError, () => durable.commit());

    expect(error.message).toBe(
      `Session s-lost, slice Attachments, value 0: refers to media ${invoice.hash} (application/pdf, ${invoice.size} bytes) whose bytes are not in the blob store (InMemoryBlobStore); the session is not stored (nothing was written). ` +
        'Fix: Store the media through the runtime (its BlobStore takes the bytes before the event refers to them), and give SessionPersistence that same BlobStore ({ blobs }).',
    );
    expect(await store.load('s-lost')).toBeUndefined();
    await stored(blobs, invoice);
    expect(await durable.commit()).toBe(1);
  });

  it('refuses to load a session whose media bytes are gone, naming the hash and how to restore them', async () => {
    const store = new InMemorySessionStore();
    const blobs = new InMemoryBlobStore();
    await stored(blobs, screenshot, invoice);
    const durable = await new SessionPersistence({ store, codec: codec(), blobs }).open('s-gone');
    durable.session.slice(Attachments).append(new Attachments('T-3', [Media.ref(screenshot)]));
    durable.session.slice(Attachments).append(new Attachments('T-4', [Media.ref(invoice)]));
    await durable.commit();
    await blobs.delete(invoice.hash);

    const reopen = () => new SessionPersistence({ store, codec: codec(), blobs }).open('s-gone');
    const error = await catchRejection(ConfigurationError, reopen);

    expect(error.subject).toBe('Session s-gone, slice Attachments, value 1');
    expect(error.problem).toContain(`refers to media ${invoice.hash} (application/pdf`);
    expect(error.problem).toContain('the session is not loaded.');
    expect(error.fix).toBe(
      `Restore the blob (InMemoryBlobStore.put('${invoice.hash}', bytes, 'application/pdf')) from a backup, or give SessionPersistence the BlobStore the runtime wrote the media to ({ blobs }).`,
    );
    // Without a blob store the references load unchecked.
    const unchecked = await new SessionPersistence({ store, codec: codec() }).open('s-gone');
    expect(unchecked.session.slice(Attachments).all()).toHaveLength(2);
    await stored(blobs, invoice);
    expect((await reopen()).session.slice(Attachments).all()).toHaveLength(2);
  });

  it('stores a media part as its reference, and refuses it without a blob store to hold its bytes', async () => {
    const store = new InMemorySessionStore();
    const blobs = new InMemoryBlobStore();
    await stored(blobs, screenshot);
    const parts = [screenshot as unknown as MediaRef];

    const unbacked = await new SessionPersistence({ store, codec: codec() }).open('s-part');
    unbacked.session.slice(Attachments).append(new Attachments('T-5', parts));
    const refused = await catchRejection(ConfigurationError, () => unbacked.commit());
    expect(refused.message).toBe(
      `Session s-part, slice Attachments, value 0: refers to media ${screenshot.hash} (image/png), whose bytes this session's persistence has no BlobStore to find; nothing was written. ` +
        'Fix: Give SessionPersistence the BlobStore the runtime writes media to: new SessionPersistence({ store, codec, blobs }) (in a Nest app: AffordanceModule.forRoot({ blobStore })), e.g. a PostgresBlobStore or RedisBlobStore beside the session store.',
    );
    expect(await store.load('s-part')).toBeUndefined();

    const durable = await new SessionPersistence({ store, codec: codec(), blobs }).open('s-part');
    durable.session.slice(Attachments).append(new Attachments('T-5', parts));
    await durable.commit();
    const json = JSON.stringify((await store.load('s-part'))?.slices);
    expect(json).not.toContain('bytes');
    const loaded = await new SessionPersistence({ store, codec: codec(), blobs }).open('s-part');
    const [ref] = loaded.session.slice(Attachments).all()[0]!.refs;
    expect(ref).toEqual(Media.ref(screenshot));
    expect(Object.isFrozen(ref)).toBe(true);
  });

  it('refuses bytes outside a media part, pointing at Media.ref and a BlobStore', async () => {
    const durable = await new SessionPersistence({
      store: new InMemorySessionStore(),
      codec: codec(),
    }).open('s-bytes');
    const loose = { ...screenshot, type: 'screenshot' };
    durable.session
      .slice(Attachments)
      .append(new Attachments('T-6', [loose as unknown as MediaRef]));

    const error = await catchRejection(ConfigurationError, () => durable.commit());

    expect(error.subject).toBe('Session s-bytes, slice Attachments, value 0, at .refs[0].bytes');
    expect(error.problem).toBe(
      `bytes (Uint8Array, ${screenshot.size} bytes) are not stored in a session.`,
    );
    expect(error.fix).toContain('Media.ref(part)');
  });
});
