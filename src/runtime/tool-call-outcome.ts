import type { ToolInvoked } from './events/tool-invoked.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { ProviderToolCall } from '../provider/conversation.js';

/** The result of one provider tool call: what the model reads back, and the event the session recorded. */
export interface ToolCallOutcome {
  /** The call as the provider sent it. */
  readonly call: ProviderToolCall;
  /** The result (after any rewrite by the runtime, e.g. a failed reducer). */
  readonly result: ToolResult;
  /** The tool message exactly as the provider receives it. */
  readonly message: string;
  /** The `ToolInvoked` event dispatched for the call. */
  readonly event: ToolInvoked;
}
