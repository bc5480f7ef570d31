// Runs after `npm ci` / `npm install`. Electron's own install script (which downloads the binary)
// is denied in package.json's allowScripts, because an unreachable download host would fail the
// whole install. This tries the same download, bounded in time, and never fails the install:
// where no binary arrives, `npm start` says so and starts web mode.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('electron: binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD is set); npm start will use web mode.');
  process.exit(0);
}
let installer;
try {
  installer = join(dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'install.js');
} catch {
  process.exit(0);
}
if (!existsSync(installer)) process.exit(0);
const r = spawnSync(process.execPath, [installer], { stdio: 'inherit', timeout: 120_000 });
if (r.status === 0) console.log('electron: binary installed.');
else console.log('electron: the binary could not be downloaded here; npm start will use web mode. Retry with `npm run electron:install`.');
process.exit(0);
