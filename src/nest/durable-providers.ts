import type { Provider } from '@nestjs/common';

import { BlobStore, ConfigurationError } from '../index.js';
import {
  InMemorySessionStore,
  SessionCodec,
  SessionPersistence,
  SessionStore,
} from '../durable/index.js';
import { AffordanceModuleOptions } from './affordance-module-options.js';

/**
 * The providers of stored sessions: `SessionStore` (the `sessionStore`
 * option, or a new in-memory store) and a `SessionPersistence` on it.
 * @internal
 */
export const durableProviders: Provider[] = [
  {
    provide: SessionStore,
    useFactory: (options: AffordanceModuleOptions) =>
      options.sessionStore ?? new InMemorySessionStore(),
    inject: [AffordanceModuleOptions],
  },
  {
    provide: SessionPersistence,
    useFactory: (store: SessionStore, options: AffordanceModuleOptions) => {
      const codec = options.sessionCodec ?? new SessionCodec();
      // The module's prompts put their params classes in sessions: known from the start.
      for (const prompt of options.prompts ?? []) codec.registerPrompt(prompt);
      return new SessionPersistence({ store, codec, blobs: options.blobStore });
    },
    inject: [SessionStore, AffordanceModuleOptions],
  },
];

/** The tokens {@link durableProviders} export. @internal */
export const durableExports = [SessionStore, SessionPersistence];

/**
 * The provider of the `evaluationQueue` option, under the queue's own class,
 * with that class as the token to export; none without the option.
 * @internal
 */
export function queueProvider(
  queue: unknown,
  where: string,
): { providers: Provider[]; exports: (abstract new (...args: never[]) => unknown)[] } {
  if (queue === undefined) return { providers: [], exports: [] };
  const constructor = typeof queue === 'object' && queue !== null ? queue.constructor : undefined;
  if (constructor === undefined || constructor === Object) {
    throw new ConfigurationError({
      subject: where,
      problem: 'options.evaluationQueue must be an instance of a queue class (an EvaluationQueue).',
      fix: 'Pass new EvaluationQueue({ connection }) from affordance/bullmq, or leave the option out.',
    });
  }
  const token = constructor as abstract new (...args: never[]) => unknown;
  return { providers: [{ provide: token, useValue: queue }], exports: [token] };
}

/**
 * Checks the stored-session options when the module is declared.
 * @internal
 */
export function assertDurableOptions(options: AffordanceModuleOptions, where: string): void {
  const { sessionStore, sessionCodec } = options;
  if (sessionStore !== undefined && !(sessionStore instanceof SessionStore)) {
    throw new ConfigurationError({
      subject: where,
      problem: 'options.sessionStore must be a SessionStore.',
      fix: 'Pass new PostgresSessionStore({ pool }), new RedisSessionStore({ client }) or new InMemorySessionStore() from affordance/durable, or leave it out.',
    });
  }
  if (options.blobStore !== undefined && !(options.blobStore instanceof BlobStore)) {
    throw new ConfigurationError({
      subject: where,
      problem: 'options.blobStore must be a BlobStore.',
      fix: 'Pass new FilesystemBlobStore({ directory }), new PostgresBlobStore({ pool }) or new RedisBlobStore({ client }) from affordance/durable, or leave it out.',
    });
  }
  if (sessionCodec !== undefined && !(sessionCodec instanceof SessionCodec)) {
    throw new ConfigurationError({
      subject: where,
      problem: 'options.sessionCodec must be a SessionCodec.',
      fix: 'Pass new SessionCodec({ classes: [...] }) from affordance/durable, or leave it out.',
    });
  }
}
