/**
 * The module's stored-session options on a real Nest application context:
 * `SessionStore` and `SessionPersistence` injected by class (in memory by
 * default), a conversation kept across two application contexts that share a
 * store, the `evaluationQueue` option provided under its own class, and bad
 * options refused at `forRoot` / `forRootAsync` with a Fix.
 */
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';

import {
  AffordanceRuntime,
  BlobStore,
  ConfigurationError,
  InMemoryBlobStore,
  MarkdownSection,
  Media,
  Prompt,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import {
  InMemorySessionStore,
  SessionCodec,
  SessionPersistence,
  SessionStore,
} from 'affordance/durable';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { ScriptedAdapter } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { pngFile } from '../support/media-files.js';
import { createContext } from '../support/nest-http.js';

class NoteParams {
  @IsString() text!: string;
}

const prompt = new Prompt({
  ns: 'test/nest',
  key: 'notes',
  sections: [
    new MarkdownSection({
      key: 'notes',
      title: 'Notes',
      template: 'Take notes.',
      tools: [
        new ToolDefinition({
          name: 'note',
          description: 'Note something.',
          params: NoteParams,
          handler: (params) => ToolResult.ok(null, `Noted ${params.text}.`),
        }),
      ],
    }),
  ],
});

/** A service of the application: evaluates on a stored session and commits it. */
@Injectable()
class Conversations {
  constructor(
    private readonly persistence: SessionPersistence,
    private readonly affordance: AffordanceService,
  ) {}

  async say(sessionId: string, text: string): Promise<number> {
    const durable = await this.persistence.open(sessionId);
    await this.affordance.evaluate(prompt, { session: durable.session, input: text });
    return await durable.commit();
  }
}

const screenshot = Media.image(pngFile(4, 4));
const shotPrompt = new Prompt({
  ns: 'test/nest',
  key: 'shots',
  sections: [
    new MarkdownSection({
      key: 'shots',
      title: 'Shots',
      template: 'Look at the page.',
      tools: [
        new ToolDefinition({
          name: 'shot',
          description: 'Take a screenshot.',
          handler: () => ToolResult.withMedia('The page.', [screenshot]),
        }),
      ],
    }),
  ],
});

/** A service that evaluates on a stored session whose tool answers with an image, then commits. */
@Injectable()
class Screenshots {
  constructor(
    private readonly persistence: SessionPersistence,
    private readonly affordance: AffordanceService,
  ) {}

  async take(sessionId: string): Promise<number> {
    const durable = await this.persistence.open(sessionId);
    await this.affordance.evaluate(shotPrompt, { session: durable.session, input: 'Look.' });
    return await durable.commit();
  }
}

function shotModule(blobStore?: BlobStore) {
  @Module({
    imports: [
      AffordanceModule.forRoot({
        adapter: () =>
          new ScriptedAdapter([{ toolCalls: [{ name: 'shot', arguments: {} }] }, { text: 'seen' }]),
        adapterScope: 'evaluation',
        prompts: [shotPrompt],
        ...(blobStore === undefined ? {} : { blobStore }),
      }),
    ],
    providers: [Screenshots],
  })
  class ShotModule {}
  return ShotModule;
}

/** Stands for an `EvaluationQueue`: the module provides whatever queue it is given under its class. */
class OrdersQueue {
  readonly name = 'orders';
}

function appModule(
  options: { store?: SessionStore; queue?: object; codec?: SessionCodec; blobs?: BlobStore } = {},
) {
  @Module({
    imports: [
      AffordanceModule.forRoot({
        adapter: () =>
          new ScriptedAdapter([
            { toolCalls: [{ name: 'note', arguments: { text: 'hello' } }] },
            { text: 'noted' },
          ]),
        adapterScope: 'evaluation',
        prompts: [prompt],
        ...(options.store === undefined ? {} : { sessionStore: options.store }),
        ...(options.codec === undefined ? {} : { sessionCodec: options.codec }),
        ...(options.queue === undefined ? {} : { evaluationQueue: options.queue }),
        ...(options.blobs === undefined ? {} : { blobStore: options.blobs }),
      }),
    ],
    providers: [Conversations],
  })
  class AppModule {}
  return AppModule;
}

describe('AffordanceModule stored sessions', () => {
  it('provides an in-memory SessionStore and a SessionPersistence on it by default', async () => {
    const app = await createContext(appModule());
    expect(app.get(SessionStore)).toBeInstanceOf(InMemorySessionStore);
    expect(app.get(SessionPersistence).store).toBe(app.get(SessionStore));
    expect(await app.get(Conversations).say('s-1', 'Note hello.')).toBe(1);
    await app.close();
  });

  it('keeps a conversation across two applications that share a store', async () => {
    const store = new InMemorySessionStore();
    const codec = new SessionCodec({ classes: [NoteParams] });
    const first = await createContext(appModule({ store, codec }));
    expect(first.get(SessionStore)).toBe(store);
    expect(first.get(SessionPersistence).codec).toBe(codec);
    await first.get(Conversations).say('s-2', 'Note hello.');
    await first.close();

    const second = await createContext(appModule({ store, codec }));
    expect(await second.get(Conversations).say('s-2', 'Note hello again.')).toBe(2);
    const durable = await second.get(SessionPersistence).open('s-2');
    const records = durable.session.view.slice(ToolInvoked).all();
    expect(records.map((event) => [event.name, event.outcome])).toEqual([
      ['note', 'success'],
      ['note', 'success'],
    ]);
    expect(new Set(records.map((event) => event.evaluationId)).size).toBe(2);
    await second.close();
  });

  it('binds the blobStore option in the runtime container and gives it to the SessionPersistence', async () => {
    const blobs = new InMemoryBlobStore();
    const app = await createContext(appModule({ blobs }));
    expect(app.get(AffordanceRuntime).container.get(BlobStore)).toBe(blobs);
    expect(app.get(SessionPersistence).blobs).toBe(blobs);
    expect(await app.get(Conversations).say('s-3', 'Note hello.')).toBe(1);
    await app.close();
    const without = await createContext(appModule());
    expect(without.get(SessionPersistence).blobs).toBeUndefined();
    await without.close();
  });

  it('stores a session whose tool answered with an image with the blobStore option, and refuses it without', async () => {
    const blobs = new InMemoryBlobStore();
    const app = await createContext(shotModule(blobs));
    expect(await app.get(Screenshots).take('s-shot')).toBe(1);
    expect(await blobs.get(screenshot.hash)).toEqual(screenshot.bytes);
    const loaded = await app.get(SessionPersistence).open('s-shot');
    expect(loaded.session.slice(ToolInvoked).all()[0]?.media).toEqual([Media.ref(screenshot)]);
    await app.close();

    const without = await createContext(shotModule());
    const error = await catchRejection(ConfigurationError, () =>
      without.get(Screenshots).take('s-shot'),
    );
    expect(error.fix).toContain('AffordanceModule.forRoot({ blobStore })');
    expect(await without.get(SessionStore).load('s-shot')).toBeUndefined();
    await without.close();
  });

  it('provides the evaluationQueue option under its own class', async () => {
    const queue = new OrdersQueue();
    const app = await createContext(appModule({ queue }));
    expect(app.get(OrdersQueue)).toBe(queue);
    await app.close();
  });

  it('refuses options that are not a store, a codec or a queue instance, naming the fix', () => {
    const notStore = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({
        adapter: () => new ScriptedAdapter([]),
        sessionStore: JSON.parse('{}') as SessionStore,
      }),
    );
    expect(notStore.message).toContain(
      'AffordanceModule.forRoot: options.sessionStore must be a SessionStore.',
    );
    expect(notStore.fix).toContain('new PostgresSessionStore({ pool })');
    const notCodec = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({
        adapter: () => new ScriptedAdapter([]),
        sessionCodec: JSON.parse('{}') as SessionCodec,
      }),
    );
    expect(notCodec.problem).toBe('options.sessionCodec must be a SessionCodec.');
    const notBlobs = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({
        adapter: () => new ScriptedAdapter([]),
        blobStore: new Map() as unknown as BlobStore,
      }),
    );
    expect(notBlobs.problem).toBe('options.blobStore must be a BlobStore.');
    expect(notBlobs.fix).toContain('new PostgresBlobStore({ pool })');
    const notQueue = catchError(ConfigurationError, () =>
      AffordanceModule.forRootAsync({
        useFactory: () => ({ adapter: () => new ScriptedAdapter([]) }),
        evaluationQueue: {},
      }),
    );
    expect(notQueue.message).toContain(
      'AffordanceModule.forRootAsync: options.evaluationQueue must be an instance of a queue class',
    );
  });
});
