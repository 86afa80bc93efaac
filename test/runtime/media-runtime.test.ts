import { IsString } from 'class-validator';

import {
  BlobStore,
  type EvaluationState,
  EvaluationStateError,
  InMemoryBlobStore,
  MarkdownSection,
  Media,
  MediaError,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchRejection } from '../support/catch-error.js';
import { pngFile } from '../support/media-files.js';

class RefundParams {
  @IsString() orderId!: string;
}

/** A refund tool that needs approval, and a photo tool whose store may fail. */
function claimsDesk(): Prompt {
  return new Prompt({
    ns: 'test/media',
    key: 'claims',
    sections: [
      new MarkdownSection({
        key: 'claims',
        title: 'Claims',
        template: 'Refund damaged orders after looking at the photo.',
        tools: [
          new ToolDefinition({
            name: 'refund',
            description: 'Refund an order.',
            params: RefundParams,
            approval: true,
            handler: (params: RefundParams) => ToolResult.ok(null, `Refunded ${params.orderId}.`),
          }),
          new ToolDefinition({
            name: 'photo',
            description: 'The photo of the parcel.',
            params: RefundParams,
            handler: () =>
              ToolResult.withMedia('The parcel.', [Media.image(pngFile(30, 20, 0, 3))]),
          }),
        ],
      }),
    ],
  });
}

/** A store whose `put` fails, to show the call fails and nothing stays behind. */
class FailingStore extends InMemoryBlobStore {
  failPuts = false;
  override put(hash: string, bytes: Uint8Array, mediaType: string): Promise<boolean> {
    if (this.failPuts) return Promise.reject(new Error('disk full'));
    return super.put(hash, bytes, mediaType);
  }
}

describe('media through the runtime', () => {
  it('saves a paused evaluation with references, and resumes it with the bytes from the BlobStore', async () => {
    const store = new InMemoryBlobStore();
    const photo = Media.image(pngFile(200, 100, 300_000));
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'refund', arguments: { orderId: 'A-1' } }] },
        { text: 'Refunded.' },
      ],
      configure: (container) => container.bind(BlobStore).toConstantValue(store),
    });
    const session = new Session();
    const paused = await agent.runtime.evaluate(claimsDesk(), {
      session,
      input: [Media.text('My parcel arrived crushed.'), photo],
    });
    if (paused.status !== 'interrupted') throw new Error('expected a pause');
    const saved = JSON.stringify(paused.interruption.state);
    // The state holds the reference, not 300 KB of base64.
    expect(saved.length).toBeLessThan(20_000);
    expect(saved).toContain(photo.hash);
    expect(await store.has(photo.hash)).toBe(true);

    const state = JSON.parse(saved) as EvaluationState;
    const resumed = await agent.runtime.resume(
      claimsDesk(),
      state,
      [{ callId: paused.interruption.pending[0]?.callId ?? '', approved: true }],
      { session },
    );
    expect(resumed.status).toBe('completed');
    const last = agent.adapter.requests.at(-1);
    const user = last?.messages[1];
    expect(user?.role === 'user' && typeof user.content !== 'string' && user.content[1]).toEqual(
      photo,
    );
  });

  it('refuses to resume when the BlobStore lost the bytes, naming the blob', async () => {
    const store = new InMemoryBlobStore();
    const photo = Media.image(pngFile(20, 10));
    const agent = createTestRuntime({
      script: [{ toolCalls: [{ name: 'refund', arguments: { orderId: 'A-1' } }] }],
      configure: (container) => container.bind(BlobStore).toConstantValue(store),
    });
    const session = new Session();
    const paused = await agent.runtime.evaluate(claimsDesk(), { session, input: [photo] });
    if (paused.status !== 'interrupted') throw new Error('expected a pause');
    await store.delete(photo.hash);
    const error = await catchRejection(EvaluationStateError, () =>
      agent.runtime.resume(
        claimsDesk(),
        paused.interruption.state,
        [{ callId: paused.interruption.pending[0]?.callId ?? '', approved: true }],
        { session },
      ),
    );
    expect(error.problem).toContain(
      `the bytes of the image ${photo.hash} (image/png) are not in the BlobStore`,
    );
  });

  it('fails a call whose media cannot be stored; the model reads why and no record refers to it', async () => {
    const store = new FailingStore();
    store.failPuts = true;
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: 'photo', arguments: { orderId: 'A-1' } }] },
        { text: 'The photo is unavailable.' },
      ],
      configure: (container) => container.bind(BlobStore).toConstantValue(store),
    });
    const session = new Session();
    await agent.evaluate(claimsDesk(), { session });
    const [call] = session.slice(ToolInvoked).all();
    expect(call?.outcome).toBe('failure');
    expect(call?.media).toEqual([]);
    expect(call?.renderedMessage).toContain('disk full');
    expect(store.count).toBe(0);
  });

  it('refuses an input over maxBytesPerEvaluation before any request', async () => {
    const agent = createTestRuntime({ runtime: { media: { maxBytesPerEvaluation: 1000 } } });
    const error = await catchRejection(MediaError, () =>
      agent.runtime.evaluate(claimsDesk(), { input: [Media.image(pngFile(10, 10, 2000))] }),
    );
    expect(error.limit).toMatchObject({ name: 'maxBytesPerEvaluation', limit: 1000 });
    expect(agent.adapter.requests).toHaveLength(0);
  });
});
