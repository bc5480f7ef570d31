// The policy main fetches files under (main/core/files: service-fetch.ts, sniff.ts): the service's
// own origin only, whatever address a message names or a redirect points at; no credential on any
// request; bounded in size and time; the type decided by the bytes, never by a name or a header;
// programs never handed over. Every request main makes is recorded, and none may go anywhere else.
import { describe, expect, it } from 'vitest';
import type { Fetched } from '../../main/core/files/service-fetch';
import { fetchServiceFile, MAX_REDIRECTS, serviceFileUrl } from '../../main/core/files/service-fetch';
import { MAX_IMAGE_PIXELS, sniff } from '../../main/core/files/sniff';
import { htmlPage, linuxProgram, pdfDocument, pngHeaderOnly, pngImage, shellScript, svgWithScript, windowsProgram } from '../support/sample-files';

const SERVICE = 'http://service.test:3000/chat';
const ORIGIN = 'http://service.test:3000';

interface Seen {
  url: string;
  headers: Record<string, string>;
  redirect: string | undefined;
}

type Route = (url: URL) => Response | Promise<Response>;

/** A fetch that answers from `routes` by path on the service's origin, records everything, and answers 599 elsewhere. */
function recordingFetch(routes: Record<string, Route>) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push({ url: url.href, headers: Object.fromEntries(new Headers(init?.headers).entries()), redirect: init?.redirect });
    if (url.origin !== ORIGIN) return new Response('elsewhere', { status: 599 });
    const route = routes[url.pathname];
    return route ? route(url) : new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetch: fetchImpl, seen };
}

/** A timer the test fires by hand: nothing waits on a clock. */
function manualTimer() {
  const armed: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  return {
    timer: (ms: number, fire: () => void) => {
      const t = { ms, fire, cancelled: false };
      armed.push(t);
      return () => void (t.cancelled = true);
    },
    fireAll: () => armed.filter((t) => !t.cancelled).forEach((t) => t.fire()),
    armed,
  };
}

const limits = { maxBytes: 1024 * 1024, timeoutMs: 60_000 };
const file = (bytes: Uint8Array, headers: Record<string, string> = {}) => () => new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': 'application/octet-stream', ...headers } });
const redirectTo = (location: string, status = 302) => () => new Response(null, { status, headers: { location } });

async function get(raw: string, routes: Record<string, Route>, opts: { maxBytes?: number } = {}) {
  const f = recordingFetch(routes);
  const t = manualTimer();
  const result = await fetchServiceFile(raw, SERVICE, { ...limits, ...opts }, { fetch: f.fetch, timer: t.timer });
  return { result, seen: f.seen };
}

const bytesOf = (r: Fetched) => (r.ok ? Buffer.from(r.bytes) : undefined);

describe('addresses: the service itself, or nothing is requested', () => {
  it('fetches a file on the service origin, with no credential of any kind and redirects handled by main', async () => {
    const png = pngImage();
    const { result, seen } = await get(`${ORIGIN}/rails/active_storage/blobs/key/a.png`, { '/rails/active_storage/blobs/key/a.png': file(png) });
    expect(bytesOf(result)).toEqual(png);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.redirect).toBe('manual');
    // Nothing that could identify or authorise: no token header, no cookie, no authorization.
    expect(Object.keys(seen[0]!.headers)).toEqual(['accept']);
  });

  it('resolves a relative address onto the service, and accepts the same origin spelt differently', async () => {
    const png = pngImage();
    const routes = { '/files/a.png': file(png) };
    expect(bytesOf((await get('/files/a.png', routes)).result)).toEqual(png);
    expect(bytesOf((await get('HTTP://SERVICE.TEST:3000/files/a.png', routes)).result)).toEqual(png);
    expect(bytesOf((await get('http://service.test:3000/files/./x/../a.png#frag', routes)).result)).toEqual(png);
  });

  it('refuses another origin before any request: another host, port, scheme, a look-alike, a protocol-relative address', async () => {
    for (const raw of [
      'https://files.acme.example/1/screenshot.png',
      'http://service.test:3001/files/a.png',
      'https://service.test:3000/files/a.png',
      'http://service.test.evil.example:3000/files/a.png',
      'http://evil.example/service.test:3000/files/a.png',
      '//evil.example/files/a.png',
      'http://127.0.0.1:3000/files/a.png',
    ]) {
      const { result, seen } = await get(raw, {});
      expect(result, raw).toEqual({ ok: false, refused: 'other_host' });
      expect(seen, raw).toEqual([]);
    }
  });

  it('refuses credentials in the address and every odd scheme or character, before any request', async () => {
    for (const raw of [
      'http://agent:secret@service.test:3000/files/a.png',
      'http://agent@service.test:3000/files/a.png',
      'http://service.test:3000@evil.example/files/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      'file:///etc/passwd',
      'ftp://service.test:3000/files/a.png',
      'blob:http://service.test:3000/1234',
      'ws://service.test:3000/cable',
      ' http://service.test:3000/files/a.png',
      'http://service.test:3000/files/a\n.png',
      'http://service.test:3000/files/a\t.png',
      'http://service.test:3000/files/\u202Egnp.exe',
      '',
      `${ORIGIN}/${'a'.repeat(5000)}`,
    ]) {
      const { result, seen } = await get(raw, {});
      expect(result, raw).toMatchObject({ ok: false });
      expect((result as { refused?: string }).refused, raw).toMatch(/^(bad_address|other_host)$/);
      expect(seen, raw).toEqual([]);
    }
    expect(serviceFileUrl('http://agent:secret@service.test:3000/x', SERVICE)).toBe('bad_address');
    // `service.test:3000` is a user name and password there: refused as credentials, and it is another host anyway.
    expect(serviceFileUrl('http://service.test:3000@evil.example/x', SERVICE)).toBe('bad_address');
    expect(serviceFileUrl('http://evil.example/x', SERVICE)).toBe('other_host');
  });
});

describe('redirects: followed only while they stay on the service', () => {
  it('follows a redirect on the service (absolute or relative), up to three', async () => {
    const png = pngImage();
    const { result, seen } = await get(`${ORIGIN}/blobs/redirect/k/a.png`, {
      '/blobs/redirect/k/a.png': redirectTo('/disk/1/a.png'),
      '/disk/1/a.png': redirectTo(`${ORIGIN}/disk/2/a.png`, 307),
      '/disk/2/a.png': file(png),
    });
    expect(bytesOf(result)).toEqual(png);
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/blobs/redirect/k/a.png', '/disk/1/a.png', '/disk/2/a.png']);
    expect(seen.every((s) => !('api_access_token' in s.headers))).toBe(true);
  });

  it('never requests another origin a redirect points at (absolute, protocol-relative, with credentials, another scheme)', async () => {
    for (const location of ['https://bucket.s3.example/a.png?X-Amz-Signature=1', '//evil.example/a.png', 'http://x:y@service.test:3000/a.png', 'file:///etc/passwd', 'https://service.test:3000/a.png']) {
      const { result, seen } = await get(`${ORIGIN}/blobs/a.png`, { '/blobs/a.png': redirectTo(location) });
      expect(result, location).toMatchObject({ ok: false });
      expect((result as { refused?: string }).refused, location).toMatch(/^(bad_address|other_host)$/);
      expect(seen.map((s) => s.url), location).toEqual([`${ORIGIN}/blobs/a.png`]);
    }
  });

  it('gives up a redirect loop after three hops, and a redirect without a Location', async () => {
    const loop = await get(`${ORIGIN}/loop`, { '/loop': redirectTo('/loop') });
    expect(loop.result).toMatchObject({ ok: false, error: 'http' });
    expect(loop.seen).toHaveLength(MAX_REDIRECTS + 1);
    const bare = await get(`${ORIGIN}/bare`, { '/bare': () => new Response(null, { status: 301 }) });
    expect(bare.result).toMatchObject({ ok: false, error: 'http' });
  });
});

describe('size and time', () => {
  it('refuses a declared size over the limit without reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const { result } = await get(`${ORIGIN}/big`, { '/big': () => new Response(body, { headers: { 'content-length': String(limits.maxBytes + 1) } }) });
    expect(result).toEqual({ ok: false, refused: 'too_large' });
    // The stream's first pull happens when it is made; nothing after that was asked for.
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('cuts a body that says nothing about its size (or lies) at the limit, and stops reading it', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { result } = await get(`${ORIGIN}/endless`, { '/endless': () => new Response(endless, { headers: { 'content-length': '10' } }) });
    expect(result).toEqual({ ok: false, refused: 'too_large' });
    expect(cancelled).toBe(true);
    expect(pulled * 64 * 1024).toBeLessThanOrEqual(limits.maxBytes + 3 * 64 * 1024);
    // Exactly at the limit is fine.
    const exact = await get(`${ORIGIN}/exact`, { '/exact': file(new Uint8Array(1000)) }, { maxBytes: 1000 });
    expect(exact.result.ok).toBe(true);
    const over = await get(`${ORIGIN}/over`, { '/over': file(new Uint8Array(1001)) }, { maxBytes: 1000 });
    expect(over.result).toEqual({ ok: false, refused: 'too_large' });
  });

  it('gives up a body that trickles when the time limit fires (no clock is waited on)', async () => {
    const f = recordingFetch({
      '/slow': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new Uint8Array(10));
              // …and then nothing more, ever.
            },
          }),
        ),
    });
    const t = manualTimer();
    const pending = fetchServiceFile(`${ORIGIN}/slow`, SERVICE, limits, { fetch: f.fetch, timer: t.timer });
    // Let the request and the first chunk through, then the limit fires.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(t.armed.map((a) => a.ms)).toEqual([limits.timeoutMs]);
    t.fireAll();
    expect(await pending).toEqual({ ok: false, error: 'timeout' });
  });

  it('reports a service that cannot be reached, a missing file and a server error as such', async () => {
    const down = await fetchServiceFile(`${ORIGIN}/x`, SERVICE, limits, { fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch });
    expect(down).toEqual({ ok: false, error: 'network' });
    expect((await get(`${ORIGIN}/missing`, {})).result).toEqual({ ok: false, error: 'not_found', status: 404 });
    expect((await get(`${ORIGIN}/boom`, { '/boom': () => new Response('x', { status: 503 }) })).result).toEqual({ ok: false, error: 'server', status: 503 });
  });
});

describe('type by content: what the bytes are, never what they are called', () => {
  it('shows images, PDFs and media by their bytes, with our own MIME type', async () => {
    expect(await sniff(pngImage())).toEqual({ kind: 'image', mime: 'image/png' });
    expect(await sniff(pdfDocument())).toEqual({ kind: 'pdf', mime: 'application/pdf' });
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([10, 0, 10, 0, 0, 0, 0]), Buffer.alloc(20)]);
    expect(await sniff(gif)).toEqual({ kind: 'image', mime: 'image/gif' });
    const id3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.from('fffb9000', 'hex'), Buffer.alloc(64)]);
    expect(await sniff(id3)).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    const webm = Buffer.concat([Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d', 'hex'), Buffer.alloc(64)]);
    expect(await sniff(webm)).toEqual({ kind: 'video', mime: 'video/webm' });
    // A voice note recorded as WebM: audio when the message says so (both play in a media element).
    expect(await sniff(webm, 'audio')).toEqual({ kind: 'audio', mime: 'audio/webm' });
  });

  it('never hands markup over as renderable: HTML named .png, an SVG with a script, XML, text', async () => {
    for (const bytes of [htmlPage, svgWithScript, Buffer.from('<?xml version="1.0"?><a/>'), Buffer.from('hello, plain text'), Buffer.from('alert(document.cookie)')]) {
      expect(await sniff(bytes, 'image/png')).toEqual({ kind: 'file', mime: 'application/octet-stream' });
    }
  });

  it('ignores a lying Content-Type either way: a real PNG served as text/html is an image; HTML served as image/png is a file', async () => {
    const png = pngImage();
    const { result } = await get(`${ORIGIN}/p`, { '/p': file(png, { 'content-type': 'text/html' }) });
    expect(result.ok).toBe(true);
    expect(await sniff((result as { bytes: Uint8Array }).bytes, (result as { contentType: string }).contentType)).toEqual({ kind: 'image', mime: 'image/png' });
    const disguised = await get(`${ORIGIN}/h`, { '/h': file(htmlPage, { 'content-type': 'image/png' }) });
    expect(await sniff((disguised.result as { bytes: Uint8Array }).bytes, 'image/png')).toEqual({ kind: 'file', mime: 'application/octet-stream' });
  });

  it('refuses programs: a Windows executable, an ELF binary, a script with an interpreter line', async () => {
    for (const bytes of [windowsProgram, linuxProgram, shellScript]) expect(await sniff(bytes, 'image/png')).toEqual({ kind: 'program' });
  });

  it('does not preview an image that would decode to more than the pixel limit (a decompression bomb): it is a file', async () => {
    const side = Math.ceil(Math.sqrt(MAX_IMAGE_PIXELS)) + 1;
    expect(await sniff(pngHeaderOnly(side, side))).toEqual({ kind: 'file', mime: 'application/octet-stream' });
    expect(await sniff(pngHeaderOnly(4000, 3000))).toEqual({ kind: 'image', mime: 'image/png' });
  });
});
