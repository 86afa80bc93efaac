import type { INestApplication, INestApplicationContext, Type } from '@nestjs/common';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface.js';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

/** Nest options for tests: no logging, and initialisation errors are thrown instead of aborting the process. */
export const quietNest: NestApplicationContextOptions = Object.assign(
  new NestApplicationContextOptions(),
  { logger: false as const, abortOnError: false },
);

/** A Nest application context (no HTTP) of `module`, initialised. */
export function createContext(module: Type<unknown>): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(module, quietNest);
}

/** A Nest HTTP application listening on 127.0.0.1 (a free port) and its base URL. */
export interface RunningApp {
  readonly app: INestApplication;
  readonly url: string;
}

/** Creates the Nest application of `module` on Express and starts it on 127.0.0.1, port 0. */
export async function listen(module: Type<unknown>): Promise<RunningApp> {
  const app = await NestFactory.create(module, new ExpressAdapter(), quietNest);
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

/** POSTs `body` as JSON and returns the status and the parsed JSON answer. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
