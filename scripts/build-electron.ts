// npm run build (second half): bundles Electron main and preload into dist/main, and writes the
// packaged app's dist/package.json.
import { buildElectron } from './lib/build';
await buildElectron();
console.log('Built dist/main/electron-main.cjs, dist/main/preload.cjs and dist/package.json');
