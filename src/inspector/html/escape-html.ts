/**
 * Text for HTML: every character that could open a tag, an entity or end an
 * attribute value replaced by its entity, so a model's answer such as
 * `</script><img onerror=...>` shows as the text it is.
 */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** `value` as indented JSON for a `<pre>` block (already escaped), or its text when it has none. */
export function prettyJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    text = undefined;
  }
  return escapeHtml(text ?? String(value));
}

/** A random nonce for the page's Content-Security-Policy (its one inline script carries it). */
export function scriptNonce(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '');
}

/**
 * The `<meta>` Content-Security-Policy of a self-contained page: nothing is
 * loaded from anywhere, inline styles are allowed, and only the script
 * carrying `nonce` runs (so an event handler attribute that slipped into the
 * markup would not).
 */
export function contentSecurityPolicy(nonce: string): string {
  const policy = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'nonce-${nonce}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`;
}
