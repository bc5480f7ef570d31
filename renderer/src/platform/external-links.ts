// Opening a link from a message. In the desktop app main opens it in the OS browser (after its
// allow-list: http, https, mailto). In web mode main answers `opened: false`, and the page opens
// it in a new tab itself, with no opener and no referrer, but only if main accepted the URL.
import type { Bridge } from '../../../shared/bridge/contract';

export type OpenLinkOutcome = 'opened_by_os' | 'opened_in_tab' | 'refused';

export async function openExternalLink(bridge: Bridge, url: string, openTab: (url: string) => void = defaultOpenTab): Promise<OpenLinkOutcome> {
  const result = await bridge.call('shell.openExternal', { url });
  if (!result.ok) return 'refused';
  if (result.value.opened) return 'opened_by_os';
  openTab(result.value.url);
  return 'opened_in_tab';
}

function defaultOpenTab(url: string) {
  window.open(url, '_blank', 'noopener,noreferrer');
}
