import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Two projects: Node-side code (shared, main, server) in Node; renderer components in jsdom
// with fake-indexeddb standing in for the browser's IndexedDB.
export default defineConfig({
  plugins: [react()],
  test: {
    // Generous limits: CI shares two cores between vitest's workers, and a test that sends a few
    // thousand requests in-process took over the 5 s default there once (load 9-11). A limit is a
    // guard against a hang, not a speed check (speed is measured by `npm run bench`).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', environment: 'node', include: ['tests/unit/**/*.test.ts', 'tests/server/**/*.test.ts', 'tests/interop/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'renderer', environment: 'jsdom', include: ['tests/renderer/**/*.test.{ts,tsx}'], setupFiles: ['tests/renderer/setup.ts'] },
      },
    ],
  },
});
