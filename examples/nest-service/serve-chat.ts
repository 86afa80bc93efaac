import 'reflect-metadata';

import type { INestApplication } from '@nestjs/common';

import { type AppOptions, createApp, usesOpenAI } from './main.js';
import { portProblem } from '../shared/port-problem.js';

/** Options of {@link serveChat}. */
export interface ServeChatOptions extends AppOptions {
  /** Port on 127.0.0.1; `PORT` or a free port by default. */
  readonly port?: number;
}

/** The running chat server: the Nest application and the chat page's address. */
export interface ChatServer {
  readonly app: INestApplication;
  /** The chat page, `http://127.0.0.1:<port>/`. */
  readonly url: string;
}

/**
 * Starts the support service on 127.0.0.1 and prints the chat page's address
 * (`npm run example:chat`). The model is the offline scripted one unless
 * `OPENAI_API_KEY` is set (see `createApp`). Close it with `app.close()`.
 */
export async function serveChat(
  print: (line: string) => void = console.log,
  options: ServeChatOptions = {},
): Promise<ChatServer> {
  const app = await createApp(options);
  await app.listen(options.port ?? Number(process.env['PORT'] ?? 0), '127.0.0.1');
  const url = `${await app.getUrl()}/`;
  const model = usesOpenAI(options) ? 'OpenAI' : 'offline scripted model';
  print(`Chat page: ${url} (${model}). Press Ctrl-C to stop.`);
  return { app, url };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  const problem = await portProblem(process.env['PORT']);
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
  const { app } = await serveChat();
  process.once('SIGINT', () => {
    void app.close().then(() => process.exit(0));
  });
}
