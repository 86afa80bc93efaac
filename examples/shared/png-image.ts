import { deflateSync } from 'node:zlib';

/** A colour as red, green and blue, 0 to 255 each. */
export type Rgb = readonly [number, number, number];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
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
 * A PNG image of `width` × `height` pixels, each coloured by `pixel`: what a
 * browser tool's screenshot or a chart renderer would produce, made here
 * without a graphics library so the examples run offline.
 */
export function pngImage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgb,
): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const start = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), start + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/** A bar chart of `values` (0 to 1 each) as a PNG, bars in `colour` on white. */
export function barChartPng(values: readonly number[], colour: Rgb = [37, 99, 235]): Uint8Array {
  const width = 240;
  const height = 120;
  const barWidth = Math.floor(width / Math.max(values.length, 1));
  return pngImage(width, height, (x, y) => {
    const value = values[Math.floor(x / barWidth)] ?? 0;
    const inBar = x % barWidth >= 4 && height - y <= Math.round(value * (height - 10));
    return inBar ? colour : [255, 255, 255];
  });
}
