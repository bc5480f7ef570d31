// Electron entry (bundled to dist/main/electron-main.cjs). Everything is in app-main.ts, so tests
// can start the app against a mocked `electron`.
import { startDesktopApp } from './app-main';

startDesktopApp({ mainDir: __dirname, env: process.env, platform: process.platform });
