/** The version of the provider seam this build of affordance speaks. */
export const PROVIDER_SEAM_VERSION = 1;

/**
 * What an adapter can do, declared once. The runtime reads it to decide each
 * tool's schema before the first request and to reject, before any request,
 * a prompt the provider cannot serve.
 */
export interface ProviderCapabilities {
  /** The seam version the adapter implements; the runtime refuses any other. */
  readonly seamVersion: typeof PROVIDER_SEAM_VERSION;
  /**
   * Whether tool schemas are sent strict when the params class allows it (the
   * `openai-strict` profile: every field required, `null` meaning absent).
   */
  readonly strictTools: boolean;
  /** Whether provider-executed tools (`NativeTool`) can be offered. */
  readonly nativeTools: boolean;
  /** Whether the model may call several tools in one turn. */
  readonly parallelToolCalls: boolean;
  /** `native`: the provider constrains the answer to the output schema; `text`: the answer is read from JSON text. */
  readonly structuredOutput: 'native' | 'text';
  /** Whether `stream()` yields the answer as it arrives (otherwise it yields the whole turn at once). */
  readonly streaming: boolean;
  /**
   * Whether a tool result can carry images and documents (`ToolResult.parts`)
   * in the provider's own tool-result message. When not, the runtime sends
   * them in a user message right after the tool results, with a note naming
   * the call. Defaults to `false`.
   */
  readonly mediaInToolResults: boolean;
}

/**
 * Capabilities with this build's `seamVersion` and the defaults of a plain
 * text provider (standard tool schemas, no native tools, parallel calls,
 * structured output read from text, no streaming), overridden by `declared`:
 * `readonly capabilities = providerCapabilities({ strictTools: true })`.
 */
export function providerCapabilities(
  declared: Partial<Omit<ProviderCapabilities, 'seamVersion'>> = {},
): ProviderCapabilities {
  return Object.freeze({
    seamVersion: PROVIDER_SEAM_VERSION,
    strictTools: false,
    nativeTools: false,
    parallelToolCalls: true,
    structuredOutput: 'text',
    streaming: false,
    mediaInToolResults: false,
    ...declared,
  });
}
