// What a file is, by its bytes alone (magic numbers, through the file-type package): never by its
// name, the message's `file_type` or the Content-Type the server sent, all of which a sender or a
// proxy can set to anything. Only an allow-list of formats the page shows safely (raster images,
// audio, video, PDF) is handed over as renderable, with a MIME type from our own table; programs and
// installers are not handed over at all; everything else (text, HTML, SVG, XML, scripts, archives,
// office documents) is a `file`: bytes to save, typed application/octet-stream, never rendered.
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import type { FileKind } from '../../../shared/bridge/calls/files';

export type Sniffed = { kind: FileKind; mime: string } | { kind: 'program' };

/** Formats the page renders, by file-type's extension, with the MIME type the page's blob gets. */
const RENDERABLE: Record<string, { kind: Exclude<FileKind, 'file'>; mime: string }> = {
  png: { kind: 'image', mime: 'image/png' },
  apng: { kind: 'image', mime: 'image/apng' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  gif: { kind: 'image', mime: 'image/gif' },
  webp: { kind: 'image', mime: 'image/webp' },
  bmp: { kind: 'image', mime: 'image/bmp' },
  avif: { kind: 'image', mime: 'image/avif' },
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  m4a: { kind: 'audio', mime: 'audio/mp4' },
  aac: { kind: 'audio', mime: 'audio/aac' },
  wav: { kind: 'audio', mime: 'audio/wav' },
  flac: { kind: 'audio', mime: 'audio/flac' },
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  oga: { kind: 'audio', mime: 'audio/ogg' },
  opus: { kind: 'audio', mime: 'audio/ogg' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  m4v: { kind: 'video', mime: 'video/mp4' },
  mov: { kind: 'video', mime: 'video/quicktime' },
  webm: { kind: 'video', mime: 'video/webm' },
  ogv: { kind: 'video', mime: 'video/ogg' },
  pdf: { kind: 'pdf', mime: 'application/pdf' },
};

/** Executables, installers, browser extensions, shortcuts and registry files: never handed over. */
const PROGRAMS = new Set(['exe', 'elf', 'macho', 'class', 'jar', 'apk', 'dmg', 'deb', 'rpm', 'cab', 'crx', 'xpi', 'swf', 'wasm', 'lnk', 'alias', 'reg', 'asar']);

/**
 * Images are decoded whole by the page: beyond this many pixels a small file can expand to
 * gigabytes (a decompression bomb), so such an image is a file to save, not a preview.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

const OCTET = 'application/octet-stream';

function pixelsOf(bytes: Uint8Array): number | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? width * height : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `bytes` are. `declared`: the message's `file_type` or the response's type, consulted only to
 * tell an audio-only WebM from a video (both play in a media element; neither runs anything).
 */
export async function sniff(bytes: Uint8Array, declared = ''): Promise<Sniffed> {
  // A script with an interpreter line runs wherever it is saved with the execute bit (file-type reads no text).
  if (bytes[0] === 0x23 && bytes[1] === 0x21) return { kind: 'program' };
  const type = await fileTypeFromBuffer(bytes);
  if (!type) return { kind: 'file', mime: OCTET };
  if (PROGRAMS.has(type.ext)) return { kind: 'program' };
  const known = RENDERABLE[type.ext];
  if (!known) return { kind: 'file', mime: OCTET };
  if (known.kind === 'image') {
    const pixels = pixelsOf(bytes);
    if (pixels === undefined || pixels > MAX_IMAGE_PIXELS) return { kind: 'file', mime: OCTET };
  }
  if (type.ext === 'webm' && /^audio\b/i.test(declared)) return { kind: 'audio', mime: 'audio/webm' };
  return known;
}
