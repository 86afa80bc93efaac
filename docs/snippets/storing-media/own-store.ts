import type { BlobStore } from 'affordance';
import { blobStoreContract } from 'affordance/testing';

// #region contract
/** Runs the BlobStore contract on your own store; `open` gives a fresh, empty one each time. */
export async function checkBlobStore(label: string, open: () => Promise<BlobStore>) {
  const failures: string[] = [];
  for (const check of blobStoreContract(label, open)) {
    // In a test file: it(check.name, () => check.run());
    await check.run().catch((error: unknown) => failures.push(String(error)));
  }
  return failures;
}
// #endregion contract
