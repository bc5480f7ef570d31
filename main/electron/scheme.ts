// Serves the built renderer from app://inbox/ with the strict CSP. Requests that resolve outside
// the renderer folder (path traversal) get 404.
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { APP_SCHEME, resolveAppAsset } from '../core/security/app-scheme';
import { contentSecurityPolicy } from '../core/security/csp';

/** Must run before app 'ready'. */
export function registerAppSchemePrivileges() {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

export function serveRenderer(rendererDir: string) {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', contentSecurityPolicy());
    headers.set('x-content-type-options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
