import { type ProviderAdapter, SecretRedactor } from '../../provider/index.js';

/** Environment variables holding provider keys: their values never reach a cassette. */
const KEY_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_ADMIN_KEY',
  'AZURE_OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
];

/** Client fields that hold a key, on the SDK client an adapter exposes as `client`. */
const CLIENT_KEYS = ['apiKey', 'authToken', 'adminAPIKey', 'webhookSecret'];

/** How a cassette is scrubbed before it is hashed or written. */
export interface CassetteRedaction {
  /** More secrets to replace wherever they show (strings of 8 characters or more). */
  readonly secrets?: readonly string[] | (() => readonly unknown[]);
  /** Your own redaction, applied to every string after the built-in one. */
  readonly redact?: (text: string) => string;
}

/**
 * Scrubs the strings of cassette data: the adapters' `SecretRedactor`
 * (every `sk-` key and bearer token, the live adapter's client keys, the keys
 * of the usual environment variables, the configured `secrets`), then `redact`.
 */
export class CassetteRedactor {
  readonly #secrets: () => unknown[];
  readonly #redact: ((text: string) => string) | undefined;

  constructor(options: CassetteRedaction, live?: ProviderAdapter) {
    const secrets = options.secrets;
    this.#secrets = () => [
      ...(typeof secrets === 'function' ? secrets() : (secrets ?? [])),
      ...clientKeys(live),
      ...KEY_VARIABLES.map((name) => process.env[name]),
    ];
    this.#redact = options.redact;
  }

  /** `text` scrubbed. */
  text(text: string): string {
    return this.scrubber()(text);
  }

  /**
   * A JSON copy of plain data with every string (keys excepted) scrubbed:
   * undefined fields dropped, undefined list items as `null`, as `JSON.stringify` would.
   */
  json<T>(value: T): T {
    return walk(value, this.scrubber()) as T;
  }

  /** Scrubs strings with the secrets as they are now (read once: a request holds many strings). */
  scrubber(): (text: string) => string {
    const secrets = this.#secrets();
    const redactor = new SecretRedactor(() => secrets);
    const redact = this.#redact;
    return redact === undefined
      ? (text) => redactor.text(text)
      : (text) => redact(redactor.text(text));
  }
}

function walk(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item: unknown) => walk(item, scrub) ?? null);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) copy[key] = walk(item, scrub);
  }
  return copy;
}

/** The keys of the SDK client `live.client`, when the adapter exposes one (OpenAI, Anthropic). */
function clientKeys(live: ProviderAdapter | undefined): unknown[] {
  if (live === undefined) return [];
  try {
    const client = (live as { client?: unknown }).client;
    if (client === null || typeof client !== 'object') return [];
    return CLIENT_KEYS.map((key) => (client as Record<string, unknown>)[key]);
  } catch {
    return [];
  }
}
