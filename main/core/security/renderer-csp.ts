// The CSP sent with the built renderer's files. A page's (`.html`) names that page's own inline
// scripts by their hashes (csp.ts): the build's index.html has one, the head script. Read again
// whenever the file changes, so a new build under a running web host (which serves index.html
// fresh every time) runs its own, and each page served allows only what it holds itself.
import { readFileSync, statSync } from 'node:fs';
import { contentSecurityPolicy, inlineScriptHashes } from './csp';

/** Returns the policy for a file of the renderer as it is now (`undefined`: no file, an error or a socket). */
export function rendererCsp(): (file: string | undefined) => string {
  const base = contentSecurityPolicy();
  const pages = new Map<string, { version: string; policy: string }>();
  return (file) => {
    if (!file?.endsWith('.html')) return base;
    const version = fileVersion(file);
    const known = pages.get(file);
    if (known?.version === version) return known.policy;
    const policy = contentSecurityPolicy(inlineScriptHashes(readPage(file)));
    pages.set(file, { version, policy });
    return policy;
  };
}

function fileVersion(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'none';
  }
}

/** No page: no inline script is allowed. */
function readPage(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
