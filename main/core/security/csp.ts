// Content Security Policy for the renderer, whichever way it is served (Electron's app:// scheme
// or web mode's local host): our own scripts only, and no network origins at all. The renderer
// reaches the service only through main.
export function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
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
