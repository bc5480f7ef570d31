// npm run build (second half): bundles Electron main and preload into dist/main.
import { buildElectron } from './lib/build';
await buildElectron();
console.log('Built dist/main/electron-main.cjs and dist/main/preload.cjs');
