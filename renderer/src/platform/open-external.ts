// Opening a link from a message: main validates it and opens it with the OS (Electron). Web mode
// has no OS opener, so main answers with the validated address and the page opens a new tab,
// without giving it a handle back to this page.
import type { Bridge } from '../../../shared/bridge/contract';

export async function openExternal(bridge: Bridge, url: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const result = await bridge.call('shell.openExternal', { url });
  if (!result.ok) return { ok: false, message: result.error.kind === 'invalid_input' ? 'This link cannot be opened: only web and mail links can.' : result.error.message };
  if (!result.value.opened) window.open(result.value.url, '_blank', 'noopener,noreferrer');
  return { ok: true };
}
