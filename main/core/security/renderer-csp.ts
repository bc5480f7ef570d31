// The CSP sent with the built renderer's files: `script-src` names the inline scripts of the
// index.html being served by their hashes (csp.ts). Read again whenever that file changes, so a
// new build under a running web host (which serves index.html fresh every time) runs its own.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { contentSecurityPolicy, inlineScriptHashes } from './csp';

/** Returns the policy for the renderer in `rendererDir` as it is now. */
export function rendererCsp(rendererDir: string): () => string {
  const page = join(rendererDir, 'index.html');
  let version: string | undefined;
  let policy = contentSecurityPolicy();
  return () => {
    const now = pageVersion(page);
    if (now !== version) {
      version = now;
      policy = contentSecurityPolicy(inlineScriptHashes(readPage(page)));
    }
    return policy;
  };
}

function pageVersion(page: string): string {
  try {
    const stat = statSync(page);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'none';
  }
}

/** No page (yet): no inline script is allowed. */
function readPage(page: string): string {
  try {
    return readFileSync(page, 'utf8');
  } catch {
    return '';
  }
}
