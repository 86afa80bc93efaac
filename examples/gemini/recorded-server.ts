import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for the Gemini API: answers each `generateContent` request with the next recorded body. */
export interface RecordedServer {
  /** The base URL to give `createGoogleGenerativeAI` (`http://127.0.0.1:<port>/v1beta`). */
  readonly baseURL: string;
  /** The request bodies received, in order. */
  readonly requests: readonly unknown[];
  close(): Promise<void>;
}

/** Starts the recorded server on a free port of 127.0.0.1. */
export async function startRecordedServer(answers: readonly unknown[]): Promise<RecordedServer> {
  const queue = [...answers];
  const requests: unknown[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      const next = queue.shift();
      const known = request.url?.endsWith(':generateContent') === true;
      response.writeHead(known && next !== undefined ? 200 : 400, {
        'content-type': 'application/json',
      });
      response.end(
        JSON.stringify(
          known && next !== undefined
            ? next
            : { error: { code: 400, message: 'Nothing recorded for this request.' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1beta`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
