// electron-builder's beforeBuild hook. The desktop app is bundled by esbuild (dist/main) and Vite
// (dist/renderer): it has no node_modules of its own. Answering false tells electron-builder that
// node_modules are handled outside it, so it neither rebuilds the repository's native modules for
// Electron (better-sqlite3 belongs to the service) nor packs any of them into the app.asar.
// Without this, electron-builder 26 falls back from dist/ to the repository root and packs every
// production dependency of the repository, better-sqlite3 included.
export default async function beforeBuild() {
  return false;
}
