import { createHash } from 'node:crypto';

import {
  contentText,
  InMemoryBlobStore,
  isMediaPart,
  Media,
  MediaError,
  mediaParts,
} from 'affordance';

import { catchError, catchRejection } from '../support/catch-error.js';
import {
  gifFile,
  jpegHeader,
  pdfFile,
  pngFile,
  pngHeaderOnly,
  wavFile,
  webpHeader,
} from '../support/media-files.js';

const sha256 = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('hex');

describe('Media factories', () => {
  it('sniffs, measures and hashes an image, reading its size from the header', () => {
    const bytes = pngFile(32, 16);
    const image = Media.image(bytes);
    expect(image).toMatchObject({
      type: 'image',
      mediaType: 'image/png',
      size: bytes.byteLength,
      hash: `sha256:${sha256(bytes)}`,
      width: 32,
      height: 16,
    });
    expect(Object.isFrozen(image)).toBe(true);
    expect(isMediaPart(image)).toBe(true);
  });

  it('keeps its own copy of the bytes, so changing the caller’s buffer changes nothing', () => {
    const bytes = pngFile(4, 4);
    const image = Media.image(bytes);
    bytes[30] = (bytes[30] ?? 0) ^ 0xff;
    expect(image.hash).toBe(`sha256:${sha256(image.bytes ?? new Uint8Array())}`);
    expect(image.hash).not.toBe(`sha256:${sha256(bytes)}`);
  });

  it.each([
    ['image/jpeg', jpegHeader(640, 480), 640, 480],
    ['image/gif', gifFile(300, 200), 300, 200],
    ['image/webp', webpHeader(1024, 768), 1024, 768],
  ])('reads %s dimensions from the header', (mediaType, bytes, width, height) => {
    expect(Media.image(bytes)).toMatchObject({ mediaType, width, height });
  });

  it('accepts base64 and data: URLs and gives the same hash as the bytes', () => {
    const bytes = pdfFile();
    const base64 = Buffer.from(bytes).toString('base64');
    const fromBytes = Media.file(bytes, { filename: 'invoice.pdf' });
    expect(Media.file({ base64 }).hash).toBe(fromBytes.hash);
    expect(Media.file({ url: `data:application/pdf;base64,${base64}` })).toMatchObject({
      mediaType: 'application/pdf',
      hash: fromBytes.hash,
      size: bytes.byteLength,
    });
    expect(fromBytes.filename).toBe('invoice.pdf');
  });

  it('refuses a declared type the bytes contradict, naming both and the fix', () => {
    const error = catchError(MediaError, () =>
      Media.image(pngFile(2, 2), { mediaType: 'image/jpeg' }),
    );
    expect(error.message).toContain('image/jpeg');
    expect(error.message).toContain('image/png');
    expect(error.fix).toMatch(/Declare image\/png/);
  });

  it('maps aliases (image/jpg) to the standard type before comparing', () => {
    expect(Media.image(jpegHeader(2, 2), { mediaType: 'image/jpg' }).mediaType).toBe('image/jpeg');
  });

  it('refuses unknown bytes without a declared type, and a binary type whose signature is missing', () => {
    const unknown = new Uint8Array([1, 2, 3, 4, 5]);
    expect(catchError(MediaError, () => Media.file(unknown)).problem).toMatch(
      /match no known format/,
    );
    expect(
      catchError(MediaError, () => Media.file(unknown, { mediaType: 'application/pdf' })).problem,
    ).toMatch(/not application\/pdf/);
  });

  it('accepts declared UTF-8 text files and refuses text that is not UTF-8', () => {
    const csv = Media.file(Buffer.from('a,b\n1,2\n'), { mediaType: 'text/csv; charset=utf-8' });
    expect(csv.mediaType).toBe('text/csv');
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect(
      catchError(MediaError, () => Media.file(latin1, { mediaType: 'text/plain' })).problem,
    ).toMatch(/not valid UTF-8/);
  });

  it('refuses a part of the wrong kind and names the right factory', () => {
    const error = catchError(MediaError, () => Media.image(pdfFile()));
    expect(error.fix).toBe('Build it with Media.file.');
    expect(Media.audio(wavFile()).mediaType).toBe('audio/wav');
    expect(catchError(MediaError, () => Media.file(wavFile())).fix).toBe(
      'Build it with Media.audio.',
    );
  });

  it('refuses an image whose header declares more pixels than maxPixels (decompression bomb)', () => {
    const bomb = pngHeaderOnly(50_000, 50_000);
    expect(bomb.byteLength).toBeLessThan(100);
    const error = catchError(MediaError, () => Media.image(bomb));
    expect(error.limit).toEqual({ name: 'maxPixels', limit: 64_000_000, actual: 2_500_000_000 });
    expect(Media.image(pngHeaderOnly(100, 100), { maxPixels: 10_000 }).width).toBe(100);
    expect(
      catchError(MediaError, () => Media.image(pngHeaderOnly(101, 100), { maxPixels: 10_000 }))
        .limit?.actual,
    ).toBe(10_100);
  });

  it('refuses an image whose header is cut short', () => {
    expect(
      catchError(MediaError, () => Media.image(pngFile(2, 2).subarray(0, 12))).problem,
    ).toMatch(/cut short/);
  });

  it('builds URL parts for https only, typed by declaration or extension, hashed by URL', () => {
    const chart = Media.image({ url: 'https://cdn.example.com/charts/q3.png' });
    expect(chart).toEqual({
      type: 'image',
      mediaType: 'image/png',
      url: 'https://cdn.example.com/charts/q3.png',
      size: 0,
      hash: `url:${sha256('https://cdn.example.com/charts/q3.png')}`,
    });
    expect(chart.bytes).toBeUndefined();
    expect(
      catchError(MediaError, () => Media.image({ url: 'http://10.0.0.1/a.png' })).problem,
    ).toMatch(/only https: URLs/);
    expect(catchError(MediaError, () => Media.file({ url: 'file:///etc/passwd' })).problem).toMatch(
      /file:/,
    );
    expect(
      catchError(MediaError, () => Media.file({ url: new URL('https://example.com/report') })).fix,
    ).toMatch(/mediaType/);
    expect(
      Media.file({ url: new URL('https://example.com/report') }, { mediaType: 'application/pdf' })
        .mediaType,
    ).toBe('application/pdf');
  });

  it('refuses invalid base64 and sources of the wrong shape', () => {
    expect(catchError(MediaError, () => Media.image({ base64: 'not base64!' })).problem).toMatch(
      /not valid base64/,
    );
    expect(
      catchError(MediaError, () => Media.image('plain string' as unknown as Uint8Array)).problem,
    ).toMatch(/a string/);
  });

  it('makes references without bytes, and reads text and media out of message content', () => {
    const image = Media.image(pngFile(2, 2));
    const ref = Media.ref(image);
    expect(ref).toEqual({
      type: 'image',
      mediaType: 'image/png',
      size: image.size,
      hash: image.hash,
    });
    expect(JSON.stringify(ref).length).toBeLessThan(200);
    const content = [Media.text('What is this?'), image, Media.text('Be brief.')];
    expect(contentText(content)).toBe('What is this?\n\nBe brief.');
    expect(mediaParts(content)).toEqual([image]);
    expect(contentText('plain')).toBe('plain');
  });
});

describe('InMemoryBlobStore', () => {
  it('stores bytes by hash, says whether a put was new, and deletes', async () => {
    const store = new InMemoryBlobStore();
    const image = Media.image(pngFile(2, 2));
    const bytes = image.bytes ?? new Uint8Array();
    expect(await store.put(image.hash, bytes, image.mediaType)).toBe(true);
    expect(await store.put(image.hash, bytes, image.mediaType)).toBe(false);
    expect(await store.has(image.hash)).toBe(true);
    expect(await store.get(image.hash)).toBe(bytes);
    expect(store.size).toBe(bytes.byteLength);
    await store.delete(image.hash);
    await store.delete(image.hash);
    expect(await store.get(image.hash)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('refuses a put past maxBytes, naming the limit', async () => {
    const store = new InMemoryBlobStore({ maxBytes: 100 });
    const error = await catchRejection(MediaError, () =>
      store.put('sha256:x', new Uint8Array(101), 'image/png'),
    );
    expect(error.limit).toEqual({ name: 'maxBytes', limit: 100, actual: 101 });
    expect(store.count).toBe(0);
  });
});
