import type { CassetteStreamPart } from './cassette-format.js';

/** The stream a delta belongs to: the text, the reasoning, or one call's arguments. */
function channelOf(part: CassetteStreamPart): string | undefined {
  switch (part.type) {
    case 'text-delta':
      return 'text';
    case 'reasoning-delta':
      return 'reasoning';
    case 'tool-arguments-delta':
      return `arguments of ${part.callId}`;
    case 'tool-call-start':
      return undefined;
  }
}

/**
 * Stream deltas redacted as the text they add up to, so a secret split over
 * several deltas is caught: where redacting each delta alone gives the same
 * text as redacting the whole, the deltas keep their pieces; otherwise that
 * stream's deltas become one redacted delta, where its first delta was.
 */
export function redactParts(
  parts: readonly CassetteStreamPart[],
  redact: (text: string) => string,
): CassetteStreamPart[] {
  const pieces = new Map<string, string[]>();
  for (const part of parts) {
    const channel = channelOf(part);
    if (channel !== undefined && 'delta' in part) {
      pieces.set(channel, [...(pieces.get(channel) ?? []), part.delta]);
    }
  }
  const merged = new Map<string, string>();
  for (const [channel, texts] of pieces) {
    const whole = redact(texts.join(''));
    if (texts.map(redact).join('') !== whole) merged.set(channel, whole);
  }
  const result: CassetteStreamPart[] = [];
  for (const part of parts) {
    const channel = channelOf(part);
    if (channel === undefined || !('delta' in part)) {
      result.push(part);
      continue;
    }
    const whole = merged.get(channel);
    if (whole === undefined) result.push({ ...part, delta: redact(part.delta) });
    else if (whole !== '') {
      result.push({ ...part, delta: whole });
      merged.set(channel, '');
    }
  }
  return result;
}
