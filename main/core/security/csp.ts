// Content Security Policy for the renderer, whichever way it is served (Electron's app:// scheme
// or web mode's local host): our own scripts only, and no network origins at all. The renderer
// reaches the service only through main.
import { createHash } from 'node:crypto';

/**
 * The policy. `scriptHashes` ('sha256-…', from `inlineScriptHashes`) are the page's own inline
 * scripts that may run (the build's head script, vite.config.ts); no other inline script does.
 */
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): string {
  return [
    "default-src 'none'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Files main fetched and checked, handed over as bytes: audio and video play from blob: URLs,
    // a PDF shows in Chromium's viewer in a blob: frame (main typed it application/pdf by content).
    "media-src blob:",
    "frame-src blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The CSP's hash sources ('sha256-<base64>') of a built page's inline scripts: only `<script>`
 * elements written with no attribute at all, as the build writes its head script, hashed over
 * their text as the browser does. Where this reading and the browser's parser could differ
 * (markup inside the text), the browser hashes other text and refuses the script: it fails closed.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}`);
}
