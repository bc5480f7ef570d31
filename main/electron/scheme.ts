// Serves the built renderer from app://inbox/ with the strict CSP. Requests that resolve outside
// the renderer folder (path traversal) or name nothing get 404.
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { APP_SCHEME, resolveAppAsset } from '../core/security/app-scheme';
import { rendererCsp } from '../core/security/renderer-csp';

/** Must run before app 'ready'. `standard` + `secure` give a stable origin for IndexedDB. */
export function registerAppSchemePrivileges() {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });

export function serveRenderer(rendererDir: string) {
  const csp = rendererCsp();
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(rendererDir, request.url);
    if (!file) return notFound();
    let response: Response;
    try {
      response = await net.fetch(pathToFileURL(file).toString());
    } catch {
      return notFound();
    }
    if (!response.ok) return notFound();
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', csp(file));
    headers.set('x-content-type-options', 'nosniff');
    headers.set('cross-origin-opener-policy', 'same-origin');
    return new Response(response.body, { status: response.status, headers });
  });
}
