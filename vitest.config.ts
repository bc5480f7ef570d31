import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Two projects: Node-side code (shared, main, server) in Node; renderer components in jsdom
// with fake-indexeddb standing in for the browser's IndexedDB.
export default defineConfig({
  plugins: [react()],
  test: {
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
