import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The chat page: its HTML (stylesheet inlined) and the Content-Security-Policy to serve it with. */
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

/** The page's stylesheet link, replaced by the stylesheet itself (the CSP allows inline styles only). */
const stylesheetLink = '<link rel="stylesheet" href="chat-page.css" />';

/**
 * Reads `chat/chat-page.html` from disk and inlines `chat/chat-page.css` in
 * place of its stylesheet link (kept apart so each file stays short; the
 * page opened from disk still finds its styles).
 * @throws Error naming the places it looked, when the page is in none of them,
 * or when the stylesheet link or file is missing.
 */
export function loadChatPage(): ChatPage {
  const found = candidates.find((url) => existsSync(url));
  if (found === undefined) {
    throw new Error(
      `The chat page is missing: looked for ${candidates.map((url) => fileURLToPath(url)).join(' and ')}. ` +
        'Fix: run the example from a checkout of the repository, where examples/nest-service/chat/chat-page.html exists.',
    );
  }
  const html = withStylesheet(readFileSync(found, 'utf8'), new URL('chat-page.css', found));
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

function withStylesheet(html: string, stylesheet: URL): string {
  if (!html.includes(stylesheetLink) || !existsSync(stylesheet)) {
    throw new Error(
      `The chat page's stylesheet is missing: ${fileURLToPath(stylesheet)} must exist and the page must link it with ${stylesheetLink}. ` +
        'Fix: restore examples/nest-service/chat/chat-page.css and its link in chat-page.html.',
    );
  }
  const css = readFileSync(stylesheet, 'utf8');
  return html.replace(stylesheetLink, () => `<style>\n${css}</style>`);
}
