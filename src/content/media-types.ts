import type { MediaKind } from './content-part.js';

/** The media types each kind of part accepts (what the `Media` factories can check). */
export const MEDIA_TYPES: Readonly<Record<MediaKind, readonly string[]>> = Object.freeze({
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  file: ['application/pdf', 'text/plain', 'text/csv', 'text/markdown', 'application/json'],
  audio: ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/flac'],
});

/** Types whose bytes are checked as UTF-8 text (nothing to sniff). */
export const TEXT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
]);

const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/x-flac': 'audio/flac',
  'text/x-markdown': 'text/markdown',
};

const EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  json: 'application/json',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

/** `mediaType` lower-cased, without parameters (`; charset=utf-8`), common aliases mapped to their standard name. */
export function normalizeMediaType(mediaType: string): string {
  const bare = (mediaType.split(';')[0] ?? '').trim().toLowerCase();
  return ALIASES[bare] ?? bare;
}

/** The media type a path's extension names (`chart.png` → `image/png`), if affordance knows it. */
export function mediaTypeOfPath(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return EXTENSIONS[path.slice(dot + 1).toLowerCase()];
}
