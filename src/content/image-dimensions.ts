/** An image's size in pixels, as its header declares it. */
export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

/**
 * The width and height an image's header declares (PNG `IHDR`, GIF screen
 * descriptor, JPEG start-of-frame, WebP `VP8`/`VP8L`/`VP8X`), read without
 * decoding anything, or `undefined` when the header is missing or cut short.
 * What a decompression-bomb check compares with a pixel limit before any
 * decoder (the provider's or a browser's) sees the bytes.
 */
export function imageDimensions(bytes: Uint8Array, mediaType: string): ImageDimensions | undefined {
  switch (mediaType) {
    case 'image/png':
      return bytes.length >= 24 ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : undefined;
    case 'image/gif':
      return bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : undefined;
    case 'image/jpeg':
      return jpegDimensions(bytes);
    case 'image/webp':
      return webpDimensions(bytes);
    default:
      return undefined;
  }
}

function jpegDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes and markers without a length (RSTn, SOI, TEM).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      offset += 2;
      continue;
    }
    // Start of frame: SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(bytes, offset + 5), width: u16be(bytes, offset + 7) };
    }
    offset += 2 + u16be(bytes, offset + 2);
  }
  return undefined;
}

function webpDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X') {
    return { width: 1 + u24le(bytes, 24), height: 1 + u24le(bytes, 27) };
  }
  if (chunk === 'VP8L') {
    const bits = u32le(bytes, 21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') {
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  return undefined;
}

function byte(bytes: Uint8Array, offset: number): number {
  return bytes[offset] ?? 0;
}
function u16be(bytes: Uint8Array, offset: number): number {
  return (byte(bytes, offset) << 8) | byte(bytes, offset + 1);
}
function u16le(bytes: Uint8Array, offset: number): number {
  return byte(bytes, offset) | (byte(bytes, offset + 1) << 8);
}
function u24le(bytes: Uint8Array, offset: number): number {
  return u16le(bytes, offset) | (byte(bytes, offset + 2) << 16);
}
function u32be(bytes: Uint8Array, offset: number): number {
  return u16be(bytes, offset) * 0x10000 + u16be(bytes, offset + 2);
}
function u32le(bytes: Uint8Array, offset: number): number {
  return (u16le(bytes, offset) + u16le(bytes, offset + 2) * 0x10000) >>> 0;
}
