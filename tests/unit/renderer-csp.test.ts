// The CSP sent with the built renderer's files: a page's names its own inline scripts as the page
// is on disk now (main/core/security/renderer-csp.ts).
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
    const csp = rendererCsp();
    const page = join(dir, 'index.html');
    expect(scriptSrc(csp(page))).toBe(`script-src 'self' '${inlineScriptHashes(first)[0]}'`);
    const second = '<html><head><script>two(2)</script></head></html>';
    writeFileSync(join(dir, 'index.html'), second);
    expect(scriptSrc(csp(page))).toBe(`script-src 'self' '${inlineScriptHashes(second)[0]}'`);
    rmSync(join(dir, 'index.html'));
    expect(scriptSrc(csp(page))).toBe("script-src 'self'");
    writeFileSync(join(dir, 'index.html'), first);
    expect(scriptSrc(csp(page))).toBe(`script-src 'self' '${inlineScriptHashes(first)[0]}'`);
  });
  it("allows a page only its own inline scripts, and none for a page without one, no page or another file", () => {
    const dir = renderer();
    const csp = rendererCsp();
    expect(scriptSrc(csp(join(dir, 'index.html')))).toBe("script-src 'self'");
    writeFileSync(join(dir, 'index.html'), '<html><head><script src="./assets/x.js"></script></head></html>');
    expect(scriptSrc(csp(join(dir, 'index.html')))).toBe("script-src 'self'");
    const other = '<html><head><script>other()</script></head></html>';
    writeFileSync(join(dir, 'other.html'), other);
    expect(scriptSrc(csp(join(dir, 'other.html')))).toBe(`script-src 'self' '${inlineScriptHashes(other)[0]}'`);
    expect(scriptSrc(csp(join(dir, 'index.html')))).toBe("script-src 'self'");
    // A script file, or an answer that is no file (an error), names no inline script, whatever it holds.
    writeFileSync(join(dir, 'x.js'), other);
    expect(scriptSrc(csp(join(dir, 'x.js')))).toBe("script-src 'self'");
    expect(scriptSrc(csp(undefined))).toBe("script-src 'self'");
  });
});
