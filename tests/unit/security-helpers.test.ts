// The security helpers as small pure functions, attacked: the external-link allow-list, the app://
// scheme's path resolution, the IPC sender check, the permission rule and the CSP.
import nodePath from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, isTrustedSender, isTrustedSenderUrl, resolveAppAsset } from '../../main/core/security/app-scheme';
import { contentSecurityPolicy, inlineScriptHashes } from '../../main/core/security/csp';
import { isSafeExternalUrl, normalisedExternalUrl, openExternalSafely } from '../../main/core/security/external-url';
import { isPermissionAllowed } from '../../main/core/security/permissions';

describe('external links', () => {
  it.each([
    'https://example.com/path?q=1#frag',
    'http://example.com',
    'HTTPS://EXAMPLE.COM/',
    'mailto:someone@example.com',
    'mailto:someone@example.com?subject=Hi%20there',
    'https://xn--80ak6aa92e.com/',
    'https://例え.テスト/',
    'https://127.0.0.1:8443/x',
  ])('allows %s', (url) => expect(isSafeExternalUrl(url)).toBe(true));

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['mixed-case javascript:', 'JaVaScRiPt:alert(document.domain)'],
    ['javascript: with an http-looking comment', 'javascript://example.com/%0aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['data: base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['file:', 'file:///etc/passwd'],
    ['file: UNC', 'file://attacker.example/share/x.exe'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['a custom handler', 'ms-msdt:/id PCWDiagnostic'],
    ['smb:', 'smb://attacker.example/share'],
    ['our own scheme', 'app://inbox/index.html'],
    ['leading space', ' https://example.com'],
    ['leading tab before javascript:', '\tjavascript:alert(1)'],
    ['newline inside the scheme', 'java\nscript:alert(1)'],
    ['carriage return', 'https://example.com/\r\nSet-Cookie: x'],
    ['NUL', 'https://example.com/\u0000'],
    ['C1 control', 'https://example.com/\u0085'],
    ['non-breaking space', 'https://example.com/\u00a0x'],
    ['zero-width space in the host', 'https://exa\u200bmple.com'],
    ['right-to-left override', 'https://example.com/\u202egpj.exe'],
    ['byte order mark', '\ufeffhttps://example.com'],
    ['userinfo disguising the host', 'https://bank.example@evil.example/'],
    ['userinfo with a password', 'https://user:pass@example.com/'],
    ['encoded @ in userinfo', 'https://bank.example%40evil.example@evil.example/'],
    ['no host', 'https://'],
    ['scheme only', 'https:'],
    ['a relative path', '/relative/path'],
    ['protocol-relative', '//evil.example/'],
    ['empty', ''],
    ['very long', `https://example.com/${'a'.repeat(2100)}`],
    ['empty mailto', 'mailto:'],
  ])('refuses %s', (_name, url) => expect(isSafeExternalUrl(url)).toBe(false));

  it.each([undefined, null, 42, {}, ['https://example.com'], new URL('https://example.com')])('refuses a non-string %#', (value) => {
    expect(isSafeExternalUrl(value)).toBe(false);
  });

  it('hands the OS the parsed form: IDN hosts as punycode, so the browser shows the real name', () => {
    expect(normalisedExternalUrl('https://аpple.com/')).toBe('https://xn--pple-43d.com/');
    expect(normalisedExternalUrl('HTTPS://Example.COM')).toBe('https://example.com/');
  });

  it('opens only safe URLs through the injected opener', async () => {
    const opened: string[] = [];
    const opener = async (u: string) => void opened.push(u);
    expect(await openExternalSafely('javascript:alert(1)', opener)).toBe(false);
    expect(await openExternalSafely('https://Example.com', opener)).toBe(true);
    expect(opened).toEqual(['https://example.com/']);
  });
});

describe('app:// path resolution', () => {
  const root = '/opt/agent-inbox/renderer';
  it.each([
    ['app://inbox/', `${root}/index.html`],
    ['app://inbox', `${root}/index.html`],
    ['app://inbox/index.html', `${root}/index.html`],
    ['app://inbox/assets/index-abc.js', `${root}/assets/index-abc.js`],
    ['app://inbox/assets/a%20b.css', `${root}/assets/a b.css`],
    ['app://inbox/assets/x.js?v=1#top', `${root}/assets/x.js`],
    // Double encoding decodes once: a literal folder named `%2e%2e`, still inside the root.
    ['app://inbox/%252e%252e/secret', `${root}/%2e%2e/secret`],
    // A doubled slash is a path inside the root, never an absolute path.
    ['app://inbox//etc/passwd', `${root}/etc/passwd`],
    ['app://inbox/%2Fetc%2Fpasswd', `${root}/etc/passwd`],
  ])('resolves %s inside the root', (url, file) => expect(resolveAppAsset(root, url)).toBe(file));

  // The URL parser collapses `..` (also `%2e%2e`) at the root before we see the path, so these
  // name a file inside the root; what matters is that nothing ever lands outside it.
  it.each([
    ['app://inbox/../../etc/passwd', `${root}/etc/passwd`],
    ['app://inbox/%2e%2e/%2e%2e/etc/passwd', `${root}/etc/passwd`],
    ['app://inbox/%2E%2E/secret', `${root}/secret`],
    ['app://inbox/.', `${root}/index.html`],
  ])('collapses %s inside the root', (url, file) => expect(resolveAppAsset(root, url)).toBe(file));

  it.each([
    ['encoded slashes around dot-dot', 'app://inbox/assets%2F..%2F..%2F..%2Fetc%2Fpasswd'],
    ['encoded dot-dot after an encoded slash', 'app://inbox/x%2F%2e%2e%2F%2e%2e%2Fetc%2Fpasswd'],
    ['backslash', 'app://inbox/..\\..\\etc\\passwd'],
    ['encoded backslash', 'app://inbox/%5c..%5c..%5cetc%5cpasswd'],
    ['null byte', 'app://inbox/index.html%00.png'],
    ['a drive letter', 'app://inbox/C:/Windows/win.ini'],
    ['an encoded drive letter', 'app://inbox/C%3A%5CWindows%5Cwin.ini'],
    ['malformed encoding', 'app://inbox/%E0%A4%A'],
    ['another host', 'app://evil/index.html'],
    ['userinfo', 'app://inbox@evil/index.html'],
    ['userinfo on our host', 'app://x@inbox/index.html'],
    ['a port', 'app://inbox:8080/index.html'],
    ['another scheme', 'file:///opt/agent-inbox/renderer/index.html'],
    ['not a URL', 'index.html'],
  ])('refuses %s', (_name, url) => expect(resolveAppAsset(root, url)).toBeUndefined());

  it('never answers a file outside the root, for any of a few hundred generated attacks', () => {
    const pieces = ['..', '%2e%2e', '%2E%2E', '%252e%252e', '.%2e', '%2e.', '..%2f', '..%5c', '%2f', '%5c', '/', '\\', '%00', 'etc', 'passwd', '%c0%ae%c0%ae', '....//', '.'];
    let checked = 0;
    for (const a of pieces) for (const b of pieces) for (const c of pieces) {
      const file = resolveAppAsset(root, `app://inbox/${a}/${b}/${c}`);
      if (file !== undefined) expect(file.startsWith(`${root}/`), file).toBe(true);
      checked++;
    }
    expect(checked).toBe(pieces.length ** 3);
  });

  it('holds with Windows path rules too', () => {
    const winRoot = 'C:\\Program Files\\Agent Inbox\\resources\\renderer';
    expect(resolveAppAsset(winRoot, 'app://inbox/assets/x.js', nodePath.win32)).toBe(`${winRoot}\\assets\\x.js`);
    for (const url of ['app://inbox/..%2f..%2fwin.ini', 'app://inbox/x%2f%2e%2e%2f%2e%2e%2fwin.ini', 'app://inbox/D:/x', 'app://inbox/%5c%5cserver%5cshare', 'app://inbox/..\\win.ini']) {
      expect(resolveAppAsset(winRoot, url, nodePath.win32)).toBeUndefined();
    }
  });
});

describe('IPC sender', () => {
  it('trusts only our own origin', () => {
    expect(isTrustedSenderUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    for (const url of ['APP://INBOX/', 'app://inbox.evil/', 'app://evil/', 'app://inbox@evil/', 'app://x@inbox/', 'app://inbox:1/', 'https://inbox/', 'file:///index.html', 'http://127.0.0.1:4477/', 'about:blank', 'devtools://devtools/', '', null, undefined, 'app:inbox']) {
      expect(isTrustedSenderUrl(url), String(url)).toBe(false);
    }
  });
  it('trusts only the top frame', () => {
    expect(isTrustedSender({ url: `${APP_ORIGIN}/`, isMainFrame: true })).toBe(true);
    expect(isTrustedSender({ url: `${APP_ORIGIN}/`, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', isMainFrame: true })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});

describe('permissions', () => {
  it('grant notifications to our page only, and nothing else to anyone', () => {
    expect(isPermissionAllowed('notifications', `${APP_ORIGIN}/index.html`)).toBe(true);
    expect(isPermissionAllowed('notifications', 'https://evil.example/')).toBe(false);
    expect(isPermissionAllowed('notifications', undefined)).toBe(false);
    for (const p of ['media', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'pointerLock', 'midi', 'hid', 'serial', 'usb', 'fileSystem', 'display-capture', 'unknown']) {
      expect(isPermissionAllowed(p, `${APP_ORIGIN}/`), p).toBe(false);
    }
  });
});

describe('content security policy', () => {
  const csp = contentSecurityPolicy();
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  it('names no network origin and no wildcard anywhere', () => {
    expect(csp).not.toMatch(/https?:|wss?:|\*/);
  });
  it('defaults to none and allows scripts from the app only, never inline or eval', () => {
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
  });
  it("allows the page's own inline scripts by their hashes, and no other inline script", () => {
    // The CSP specification's own example: this script's sha256, base64.
    const example = "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=";
    expect(inlineScriptHashes("<html><head><script>alert('Hello, world.');</script></head></html>")).toEqual([example]);
    const withHash = Object.fromEntries(contentSecurityPolicy([example]).split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(withHash['script-src']).toEqual(["'self'", `'${example}'`]);
    expect(withHash['script-src']).not.toContain("'unsafe-inline'");
  });
  it.each([
    ['a script from a file', '<script src="/assets/x.js"></script>'],
    ['a module', '<script type="module">alert(1)</script>'],
    ['a script with any attribute', '<script nonce="x">alert(1)</script>', '<script defer>alert(1)</script>'],
    ['a script written otherwise', '<SCRIPT>alert(1)</SCRIPT>', '<script >alert(1)</script>'],
    ['a script never closed', '<script>alert(1)'],
    ['an event handler', '<img src=x onerror="alert(1)">'],
    ['no page', ''],
  ])('allows nothing by hash for %s', (_what, ...pages) => {
    for (const page of pages) expect(inlineScriptHashes(page)).toEqual([]);
  });
  it('hashes only up to where the element ends', () => {
    const [hash] = inlineScriptHashes('<script>a()</script><script>b()</script>');
    expect(hash).toBe(inlineScriptHashes('<script>a()</script>')[0]);
    expect(inlineScriptHashes('<script>a()</script><script>b()</script>')).toHaveLength(2);
  });
});
