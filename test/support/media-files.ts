import { deflateSync } from 'node:zlib';

/**
 * Real media files built byte by byte, so tests need no binary fixtures: a PNG
 * any decoder opens (CRCs included), and headers of the other formats exactly
 * as their specifications lay them out.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A grey `width` × `height` PNG. `padTo` appends an ancillary chunk so the
 * file is at least that many bytes (a large image for memory benches).
 */
export function pngFile(width: number, height: number, padTo = 0, shade = 0x80): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, shade);
  for (let row = 0; row < height; row += 1) rows[row * (width + 1)] = 0; // filter: none
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
  ];
  const size = parts.reduce((sum, part) => sum + part.length, 12);
  if (padTo > size + 12) {
    const filler = Buffer.alloc(padTo - size - 12);
    for (let index = 0; index < filler.length; index += 1)
      filler[index] = (index * 31 + shade) & 0xff;
    parts.push(chunk('teXt', filler));
  }
  parts.push(chunk('IEND', new Uint8Array(0)));
  return new Uint8Array(Buffer.concat(parts));
}

/** A PNG whose header declares `width` × `height` but carries almost no data (a decompression-bomb header). */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

/** A JPEG's first segments: SOI, a JFIF APP0, then a baseline start-of-frame declaring `width` × `height`. */
export function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [
    0xff,
    0xc0,
    0x00,
    0x0b,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    1,
    1,
    0x11,
    0,
  ];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}

/** A GIF89a logical screen of `width` × `height` with an empty trailer. */
export function gifFile(width: number, height: number): Uint8Array {
  return new Uint8Array([
    ...Buffer.from('GIF89a', 'latin1'),
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0,
    0,
    0,
    0x3b,
  ]);
}

/** A lossless WebP (VP8L) header declaring `width` × `height`. */
export function webpHeader(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const body = Buffer.alloc(10);
  body[0] = 0x2f; // VP8L signature
  body.writeUInt32LE(bits >>> 0, 1);
  const vp8l = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32le(body.length), body]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('RIFF', 'latin1'),
      u32le(4 + vp8l.length),
      Buffer.from('WEBP', 'latin1'),
      vp8l,
    ]),
  );
}

/** A one-page PDF whose page shows `text`. */
export function pdfFile(text = 'Invoice 42: total 17.50 EUR'): Uint8Array {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  return new Uint8Array(
    Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
        '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
        '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n' +
        `4 0 obj << /Length ${stream.length} >> stream\n${stream}\nendstream endobj\n` +
        'trailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    ),
  );
}

/** A WAV file of `samples` silent 8-bit mono samples at 8 kHz. */
export function wavFile(samples = 800): Uint8Array {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(8000, 4);
  fmt.writeUInt32LE(8000, 8);
  fmt.writeUInt16LE(1, 12);
  fmt.writeUInt16LE(8, 14);
  const data = Buffer.alloc(samples, 0x80);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('RIFF', 'latin1'),
      u32le(4 + 8 + 16 + 8 + samples),
      Buffer.from('WAVEfmt ', 'latin1'),
      u32le(16),
      fmt,
      Buffer.from('data', 'latin1'),
      u32le(samples),
      data,
    ]),
  );
}

function u32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0, 0);
  return buffer;
}
