import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The chat page: its HTML and the Content-Security-Policy to serve it with. */
export interface ChatPage {
  readonly html: string;
  /** Allows the page's own inline script (by hash) and style, and requests to this server only. */
  readonly contentSecurityPolicy: string;
}

/**
 * Where the page's HTML may be: next to this module (running from source, as
 * the tests do), or in the source folder seen from the compiled module in
 * `.build/examples/nest-service/` (tsc compiles TypeScript only, so the HTML
 * stays in `examples/nest-service/chat/`).
 */
const candidates = [
  new URL('./chat/chat-page.html', import.meta.url),
  new URL('../../../examples/nest-service/chat/chat-page.html', import.meta.url),
];

/**
 * Reads `chat/chat-page.html` from disk.
 * @throws Error naming the places it looked, when the file is in none of them.
 */
export function loadChatPage(): ChatPage {
  const found = candidates.find((url) => existsSync(url));
  if (found === undefined) {
    throw new Error(
      `The chat page is missing: looked for ${candidates.map((url) => fileURLToPath(url)).join(' and ')}. ` +
        'Fix: run the example from a checkout of the repository, where examples/nest-service/chat/chat-page.html exists.',
    );
  }
  const html = readFileSync(found, 'utf8');
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}
