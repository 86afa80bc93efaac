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
  readonly #redactor: SecretRedactor;
  readonly #redact: ((text: string) => string) | undefined;

  constructor(options: CassetteRedaction, live?: ProviderAdapter) {
    const secrets = options.secrets;
    this.#redactor = new SecretRedactor(() => [
      ...(typeof secrets === 'function' ? secrets() : (secrets ?? [])),
      ...clientKeys(live),
      ...KEY_VARIABLES.map((name) => process.env[name]),
    ]);
    this.#redact = options.redact;
  }

  /** `text` scrubbed. */
  text(text: string): string {
    const scrubbed = this.#redactor.text(text);
    return this.#redact === undefined ? scrubbed : this.#redact(scrubbed);
  }

  /** A copy of JSON data with every string (keys excepted) scrubbed. */
  json<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item: unknown) => this.#walk(item));
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = this.#walk(item);
    return copy;
  }
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
