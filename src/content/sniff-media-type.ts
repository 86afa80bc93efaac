/**
 * The media type the bytes' first bytes (their "magic number") identify, or
 * `undefined` when they match none of the formats affordance checks: PNG,
 * JPEG, GIF, WebP, PDF, WAV, MP3, OGG and FLAC.
 */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  if (startsWithText(bytes, 0, 'GIF87a') || startsWithText(bytes, 0, 'GIF89a')) return 'image/gif';
  if (startsWithText(bytes, 0, 'RIFF') && startsWithText(bytes, 8, 'WEBP')) return 'image/webp';
  if (startsWithText(bytes, 0, 'RIFF') && startsWithText(bytes, 8, 'WAVE')) return 'audio/wav';
  if (startsWithText(bytes, 0, '%PDF-')) return 'application/pdf';
  if (startsWithText(bytes, 0, 'OggS')) return 'audio/ogg';
  if (startsWithText(bytes, 0, 'fLaC')) return 'audio/flac';
  if (startsWithText(bytes, 0, 'ID3')) return 'audio/mpeg';
  // An MPEG audio frame starts with 11 set bits (the frame sync).
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) {
    return 'audio/mpeg';
  }
  return undefined;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, index) => bytes[index] === byte);
}

function startsWithText(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let index = 0; index < text.length; index += 1) {
    if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  }
  return true;
}
