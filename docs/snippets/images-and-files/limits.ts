import 'reflect-metadata';
import { MarkdownSection, Media, MediaError, Prompt } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

const prompt = new Prompt({
  ns: 'docs',
  key: 'claims',
  sections: [new MarkdownSection({ key: 'claims', title: 'Claims', template: 'Read the claim.' })],
});

/** The refusal of a claim with more pages than the runtime allows, before any request. */
export async function tooManyParts(pages: readonly Uint8Array[]): Promise<string> {
  // #region limits
  const agent = createTestRuntime({
    script: [{ text: 'Read.' }],
    runtime: { media: { maxPartsPerMessage: 3, maxBytesPerEvaluation: 10 * 1024 * 1024 } },
  });
  try {
    await agent.runtime.evaluate(prompt, {
      input: pages.map((page) => Media.image(page)),
    });
    return 'sent';
  } catch (error) {
    if (MediaError.is(error)) return `${error.limit?.name}: ${error.message}`;
    throw error;
  }
  // #endregion limits
}
