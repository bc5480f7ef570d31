import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is built to static files served by the web-mode host or Electron's custom scheme.
// Relative asset paths ('./') so both origins load the same build.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  // Loaded from disk (app:// or the local web host). What the first list rows do not need is split
  // off by dynamic imports (screens/lazy-screens.ts): less to parse and run before the first paint.
  build: { outDir: '../dist/renderer', emptyOutDir: true, sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
  // The search index's worker (search/index-runner.ts) is started as a module worker: built as one.
  worker: { format: 'es' },
});
