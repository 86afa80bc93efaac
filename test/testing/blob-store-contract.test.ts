/**
 * The BlobStore contract of affordance/testing finds what is wrong with a
 * store: each broken store below fails the checks about what it breaks.
 */
import { BlobStore } from 'affordance';
import { blobStoreContract } from 'affordance/testing';

/** A store in a Map that keeps the caller's array and trusts every hash, broken further by `flaw`. */
class FlawedStore extends BlobStore {
  readonly blobs = new Map<string, Uint8Array>();
  constructor(private readonly flaw: 'alwaysNew' | 'neverDeletes' | 'trustsHashes' | 'none') {
    super();
  }
  async put(hash: string, bytes: Uint8Array): Promise<boolean> {
    await Promise.resolve();
    const known = this.blobs.has(hash);
    this.blobs.set(hash, bytes);
    return this.flaw === 'alwaysNew' ? true : !known;
  }
  get(hash: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.blobs.get(hash));
  }
  has(hash: string): Promise<boolean> {
    return Promise.resolve(this.blobs.has(hash));
  }
  delete(hash: string): Promise<void> {
    if (this.flaw !== 'neverDeletes') this.blobs.delete(hash);
    return Promise.resolve();
  }
}

async function failures(
  flaw: ConstructorParameters<typeof FlawedStore>[0],
  options?: Parameters<typeof blobStoreContract>[2],
): Promise<string[]> {
  const failed: string[] = [];
  for (const check of blobStoreContract(
    `a store that ${flaw}`,
    () => new FlawedStore(flaw),
    options,
  )) {
    await check.run().catch((error: unknown) => failed.push(String(error)));
  }
  return failed;
}

describe('blobStoreContract', () => {
  const loose = { checksHashes: false, copiesBytes: false };

  it('passes a store that keeps the promises of the BlobStore methods, when told it trusts hashes and keeps arrays', async () => {
    expect(await failures('none', loose)).toEqual([]);
  });

  it('fails a store whose put always answers true: once stored, and concurrent writers', async () => {
    const failed = await failures('alwaysNew', loose);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toContain(
      "BlobStore contract check 'answers false for bytes it already holds, and keeps them' failed for a store that alwaysNew: a second put of the same bytes answered true, expected false.",
    );
    expect(failed[1]).toContain('8 of 8 concurrent puts of new bytes answered true');
  });

  it('fails a store whose delete keeps the bytes', async () => {
    const failed = await failures('neverDeletes', loose);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(
      /after delete\('sha256:[0-9a-f]{64}'\) the store still has the bytes/,
    );
  });

  it("by default, also fails a store that trusts every hash and keeps the caller's array", async () => {
    const failed = await failures('trustsHashes');
    expect(failed.map((message) => /check '([^']+)'/.exec(message)?.[1])).toEqual([
      'refuses bytes under a hash that is not theirs, naming it, and stores nothing',
      'refuses a hash that is not sha256:<64 hex> in put, get, has and delete, naming it',
      'keeps its own bytes: changing the bytes given or returned changes nothing stored',
    ]);
    expect(failed[0]).toContain('was accepted');
  });
});
