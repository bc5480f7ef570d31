// Applied to every webContents the app creates (app 'web-contents-created'), not only the main
// window: no navigation away from the app, no redirects, no webviews, no new windows. Links
// the page tries to open go to the OS browser when they pass the allow-list.
import type { WebContents } from 'electron';
import { openExternalSafely } from '../core/security/external-url';

export function guardWebContents(contents: WebContents, openExternal: (url: string) => Promise<void>, onError: (err: unknown) => void) {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url, openExternal).catch(onError);
    return { action: 'deny' };
  });
}
