import { ToolResult } from '../../index.js';
import {
  type ProviderStreamPart,
  type ProviderTurn,
  TokenUsage,
  type TokenUsageInit,
} from '../../provider/index.js';
import type { CassetteStreamPart, CassetteTurn } from './cassette-format.js';
import { jsonCopy } from './stable-json.js';

/** The recorded form of `turn`: plain JSON, without its `raw` provider payload. */
export function cassetteTurnOf(turn: ProviderTurn): CassetteTurn {
  return jsonCopy({
    text: turn.text,
    toolCalls: turn.toolCalls?.map((call) => ({
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
    })),
    nativeCalls: turn.nativeCalls?.map((call) => ({
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
      result: {
        message: call.result.message,
        value: call.result.value,
        success: call.result.success,
        excludeValueFromContext: call.result.excludeValueFromContext,
      },
    })),
    parsed: turn.parsed,
    usage: usageOf(turn.usage),
    finishReason: turn.finishReason,
    providerItems: turn.providerItems,
    provider: turn.provider,
    model: turn.model,
  }) as CassetteTurn;
}

function usageOf(usage: TokenUsage | undefined): TokenUsageInit | undefined {
  if (usage === undefined) return undefined;
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    reasoningTokens: usage.reasoningTokens,
  };
}

/**
 * The `ProviderTurn` a recorded turn replays as: usage as a `TokenUsage`,
 * native results as `ToolResult`s, and `raw` naming where it came from.
 */
export function providerTurnOf(recorded: CassetteTurn, source: string): ProviderTurn {
  const copy = jsonCopy(recorded) as CassetteTurn;
  const turn: { -readonly [K in keyof ProviderTurn]: ProviderTurn[K] } = {
    raw: { replayedFrom: source },
  };
  if ('text' in copy) turn.text = copy.text;
  if (copy.toolCalls !== undefined)
    turn.toolCalls = copy.toolCalls.map((call) => ({ ...call, arguments: call.arguments }));
  if (copy.nativeCalls !== undefined) {
    turn.nativeCalls = copy.nativeCalls.map((call) => ({
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
      result: new ToolResult(call.result),
    }));
  }
  if ('parsed' in copy) turn.parsed = copy.parsed;
  if (copy.usage !== undefined) turn.usage = new TokenUsage(copy.usage);
  if (copy.finishReason !== undefined) turn.finishReason = copy.finishReason;
  if (copy.providerItems !== undefined) turn.providerItems = copy.providerItems;
  if (copy.provider !== undefined) turn.provider = copy.provider;
  if (copy.model !== undefined) turn.model = copy.model;
  return turn;
}

/** The recorded form of a stream delta (the `turn` part is recorded as the turn). */
export function cassettePartOf(
  part: Exclude<ProviderStreamPart, { type: 'turn' }>,
): CassetteStreamPart {
  return { ...part };
}
