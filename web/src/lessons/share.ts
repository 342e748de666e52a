// A whole lesson in a link: the lesson file's JSON, compressed with
// deflate-raw (the browser's CompressionStream: no library, no server) and
// written in base64url after `#lessonz=1.` (1: the format's version). The
// link works offline: visiting it decodes the lesson in the page.

import { fromBase64Url, toBase64Url } from '../state/settings';

/** The URL hash key of a lesson link. */
export const LESSON_LINK_KEY = 'lessonz';
/** Version of the lesson-link format (the digits before the dot). */
const LINK_VERSION = 1;
/**
 * Longest lesson hash made, characters. Browsers take far longer URLs
 * (Chromium 2 MB), but mail and chat tools cut long links; a 20-step
 * lesson of real narration compresses to well under this.
 */
export const MAX_LINK_CHARS = 32_000;

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The URL hash (`#lessonz=1....`) carrying `lesson`; throws when it would be longer than MAX_LINK_CHARS. */
export async function encodeLessonHash(lesson: unknown): Promise<string> {
  const packed = await through(new TextEncoder().encode(JSON.stringify(lesson)), new CompressionStream('deflate-raw'));
  const hash = `#${LESSON_LINK_KEY}=${LINK_VERSION}.${toBase64Url(packed)}`;
  if (hash.length > MAX_LINK_CHARS) {
    throw new Error(`the lesson is too large for a link (${hash.length.toLocaleString('en')} characters, at most ${MAX_LINK_CHARS.toLocaleString('en')}): download the lesson file and share that instead`);
  }
  return hash;
}

/**
 * The lesson a URL hash carries: null when the hash has no lesson link,
 * `{ error }` naming what is wrong with a damaged one, else the parsed
 * JSON (not yet validated: see `validateLesson`).
 */
export async function decodeLessonHash(hash: string): Promise<null | { error: string } | { lesson: unknown }> {
  const m = new RegExp(`(?:^#|&)${LESSON_LINK_KEY}=([^&]*)`).exec(hash);
  if (!m) return null;
  const damaged = (why: string) => ({ error: `the lesson link is damaged: ${why} (ask for the link again, or for the lesson file)` });
  const v = /^(\d+)\.([A-Za-z0-9_-]+)$/.exec(m[1]);
  if (!v) return damaged('it is not a version number and base64url text');
  if (Number(v[1]) !== LINK_VERSION) return { error: `the lesson link is of version ${v[1]}, this page reads version ${LINK_VERSION}` };
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(v[2]);
  } catch {
    return damaged('its text is not base64url');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await through(bytes, new DecompressionStream('deflate-raw')));
  } catch {
    return damaged('it does not decompress (cut short or changed)');
  }
  try {
    return { lesson: JSON.parse(text) };
  } catch {
    return damaged('it does not hold a lesson file (not JSON)');
  }
}
