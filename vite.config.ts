import react from '@vitejs/plugin-react';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';
import { reactAsEsm } from './scripts/vite/react-as-esm.ts';

// The renderer's head script (renderer/src/platform/early-start.ts), inline at the top of
// index.html's head. Not part of Vite's entry: index.html's module scripts become one entry,
// evaluated after the whole ~850 KB are compiled, which is what the head script exists to run
// before. esbuild bundles it alone (an IIFE: nothing it imports is shared with the entry). Inline,
// not a file of its own: the parser waited on that file's request, 3-16 ms in a new window's
// process (bench/README.md, "The head script inline"). The CSP allows it by its hash
// (main/core/security/renderer-csp.ts reads them from the page it serves); no other inline script.
function earlyStartScript(entry: string): Plugin {
  let source: string | undefined;
  return {
    name: 'inbox-early-start-script',
    // The dev server serves the entry unbundled: the app starts both itself there, as without it.
    apply: 'build',
    async buildStart() {
      const out = await build({ entryPoints: [entry], bundle: true, format: 'iife', minify: true, target: 'es2022', write: false, logLevel: 'silent' });
      source = out.outputFiles[0]!.text.trim();
      // Would end the element early, or be read as markup, if the bundle ever held it.
      if (/<\/script|<!--/i.test(source)) throw new Error('The head script holds "</script" or "<!--": it cannot be put inline.');
    },
    transformIndexHtml() {
      if (!source) return [];
      // First in the head: parsed and run before the entry is even asked for.
      return [{ tag: 'script', children: source, injectTo: 'head-prepend' }];
    },
  };
}

// The entry as one classic script (`defer`), not a module. Chromium keeps a classic script's
// compiled code in its disk cache, and a new renderer process (a new window or tab) starts from it;
// our module entry it compiled from source in every new process (bench/README.md, "The cold open in
// a profile on disk": a new tab's cold open about 100 ms sooner; Electron's own launch not measured).
// A classic script cannot share chunks, so the screens behind dynamic imports are in it too, run
// only when imported. The search index's worker stays a module worker of its own file.
function classicEntry(): Plugin {
  return {
    name: 'inbox-classic-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, '<script defer src="$1"></script>'),
    },
  };
}

// The renderer is built to static files served by the web-mode host or Electron's custom scheme.
// Relative asset paths ('./') so both origins load the same build.
export default defineConfig({
  root: 'renderer',
  base: './',
  // React as one ES module (scripts/vite/react-as-esm.ts); the head's early script
  // (renderer/src/platform/early-start.ts), a classic script of its own; the entry as a classic script.
  plugins: [reactAsEsm(), react(), earlyStartScript(fileURLToPath(new URL('./renderer/src/platform/early-start.ts', import.meta.url))), classicEntry()],
  // Loaded from disk (app:// or the local web host). What the first list rows do not need is behind
  // dynamic imports (screens/lazy-screens.ts): in the one entry, but run only when imported.
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
    // One style sheet, linked from index.html (not put in by the script).
    cssCodeSplit: false,
    // ASCII only: non-ASCII characters in strings and patterns written as escapes (\u2026 for …).
    // One such character anywhere makes the browser hold the whole ~850 KB script as a two-byte
    // string: decoded to UTF-16 off the main thread and handed over on it in every new renderer
    // process. A traced new window spent 8 ms of main-thread CPU on that hand-over and 6 ms decoding,
    // against 4 and 1 for the ASCII build (bench/README.md, "The entry in ASCII").
    // tests/unit/packaging.test.ts holds every built script to it (the worker's below too).
    rollupOptions: { output: { format: 'iife', charset: 'ascii' } },
  },
  experimental: {
    // A classic script has no import.meta.url, and once it has run no document.currentScript: a
    // built file's address (the worker's) is taken from the document's, which is beside assets/.
    renderBuiltUrl: (filename, { hostType }) => (hostType === 'js' ? { runtime: `new URL(${JSON.stringify(filename)}, document.baseURI).href` } : { relative: true }),
  },
  // The search index's worker (search/index-runner.ts) is started as a module worker: built as one,
  // in ASCII as the entry (above).
  worker: { format: 'es', rollupOptions: { output: { charset: 'ascii' } } },
});
