import type { ProviderAdapter } from '../provider/index.js';
import type { ScriptedTurn } from './scripted-adapter.js';

/** Options of {@link AdapterHarness.open}. */
export interface HarnessOpenOptions {
  /**
   * When `true`, the first request after the scripted turns is never answered:
   * the provider accepts it and holds it open until the client gives up
   * (the request's signal aborts, or the connection is closed by `close()`).
   * The deadline and cancellation checks open the harness this way, with an
   * empty script or a script of one tool-calling turn. When `false` (the
   * default), a request past the script fails in whatever way the harness
   * chooses (an HTTP 400 naming the request, a `ScriptMismatchError`, ...).
   */
  readonly hang?: boolean;
}

/** One tool result as a provider request carries it back to the model. */
export interface FedBackToolResult {
  /** The provider's id of the call the result answers. */
  readonly callId: string;
  /** The text the model reads for it. */
  readonly content: string;
}

/** An adapter opened by {@link AdapterHarness.open}, serving one script. */
export interface AdapterUnderTest {
  /** The adapter the checks evaluate prompts with. */
  readonly adapter: ProviderAdapter;
  /**
   * Every request the provider received so far, oldest first, in the harness's
   * own form (for an HTTP provider: each request's JSON body; for an
   * in-process adapter: each `ProviderRequest`). The checks count them and
   * read them back with {@link AdapterHarness.toolResultsOf}.
   */
  requests(): readonly unknown[];
  /**
   * Stops serving: cuts a hanging request, stops the server. It may throw to
   * report what the provider side found wrong (e.g. a request body its API
   * would refuse); a check that already failed keeps its own error.
   */
  close(): Promise<void>;
}

/**
 * What an adapter author provides to run `adapterConformanceChecks` against
 * an adapter: a way to open the adapter against a provider that answers a
 * given script, and a way to read the tool results a request carried back.
 *
 * `open(script)` serves the {@link ScriptedTurn}s in order, one per request,
 * exactly as the provider would answer them, both whole (`request()`) and
 * streamed (`stream()`), whichever the adapter asks for:
 *
 * - `text`: the assistant's visible text;
 * - `toolCalls`: function calls in the given order, each with its `callId` and
 *   its `arguments` (an object is sent as its JSON text, a string verbatim,
 *   so malformed JSON reaches the adapter as the provider would send it);
 * - `parsed`: a structured answer, sent the way the provider sends one (for
 *   OpenAI: the JSON text of the message);
 * - `usage`: the token counts the provider reports for that request (a turn
 *   without `usage` may report none or zeros).
 *
 * The checks never use a turn's `expect`. For a real provider, serve the turns
 * from a server on 127.0.0.1 speaking the provider's wire format; for an
 * in-process adapter, answer directly. See `test/conformance/` in the
 * affordance repository for the scripted and OpenAI harnesses.
 */
export interface AdapterHarness {
  /** A name for messages, e.g. `OpenAIAdapter (chat)`. */
  readonly name: string;
  /** Opens the adapter against a provider answering `script`; see {@link HarnessOpenOptions}. */
  open(script: readonly ScriptedTurn[], options?: HarnessOpenOptions): Promise<AdapterUnderTest>;
  /**
   * The tool results `request` (one entry of `requests()`) carries back to the
   * model, in the order they appear in it: all of the conversation's results,
   * not only the latest turn's.
   */
  toolResultsOf(request: unknown): readonly FedBackToolResult[];
}

/** One check of `adapterConformanceChecks`: run it with any test runner. */
export interface AdapterConformanceCheck {
  /** What the check verifies, as a test name. */
  readonly name: string;
  /** Resolves when the adapter passes; rejects with an `Error` saying what was expected and what came. */
  run(harness: AdapterHarness): Promise<void>;
}
