// The CSP sent with the built renderer's files names the inline scripts of the index.html on disk
// as it is now (main/core/security/renderer-csp.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../main/core/security/csp';
import { rendererCsp } from '../../main/core/security/renderer-csp';

const scriptSrc = (policy: string) => policy.split('; ').find((d) => d.startsWith('script-src'));
const dirs: string[] = [];
const renderer = () => {
  const dir = mkdtempSync(join(tmpdir(), 'renderer-csp-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the renderer CSP', () => {
  it("names the page's inline script, and follows the page as it is rebuilt, removed and put back", () => {
    const dir = renderer();
    const first = '<html><head><script>one()</script></head></html>';
    writeFileSync(join(dir, 'index.html'), first);
    const csp = rendererCsp(dir);
    expect(scriptSrc(csp())).toBe(`script-src 'self' '${inlineScriptHashes(first)[0]}'`);
    const second = '<html><head><script>two(2)</script></head></html>';
    writeFileSync(join(dir, 'index.html'), second);
    expect(scriptSrc(csp())).toBe(`script-src 'self' '${inlineScriptHashes(second)[0]}'`);
    rmSync(join(dir, 'index.html'));
    expect(scriptSrc(csp())).toBe("script-src 'self'");
    writeFileSync(join(dir, 'index.html'), first);
    expect(scriptSrc(csp())).toBe(`script-src 'self' '${inlineScriptHashes(first)[0]}'`);
  });
  it('allows no inline script for a page without one, or for no page', () => {
    const dir = renderer();
    expect(scriptSrc(rendererCsp(dir)())).toBe("script-src 'self'");
    writeFileSync(join(dir, 'index.html'), '<html><head><script src="./assets/x.js"></script></head></html>');
    expect(scriptSrc(rendererCsp(dir)())).toBe("script-src 'self'");
  });
});
