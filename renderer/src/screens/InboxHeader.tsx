// The inbox's header: the account, search, the palette and shortcuts, the outbox and live status,
// the agent and the session switcher. Memoised: the inbox renders again whenever a picker or a
// sheet opens or closes, and a triage key's task should not render the header with it.
import { memo } from 'react';
import { LiveIndicator } from '../components/LiveIndicator';
import { OutboxStatus } from '../components/OutboxStatus';
import { SearchField } from '../components/SearchField';
import { SessionSwitcher } from '../components/SessionSwitcher';
import { UntrustedText } from '../components/UntrustedText';
import type { LiveStatus } from '../../../shared/bridge/calls/app';
import type { BridgeConnection } from '../../../shared/bridge/contract';
import type { Overlay } from '../state/ui';

export const InboxHeader = memo(function InboxHeader(props: { accountName: string | undefined; userName: string; liveStatus: LiveStatus | undefined; link: BridgeConnection; setOverlay(o: Overlay): void }) {
  return (
    <header className="app-header">
      <h1>{props.accountName ? <UntrustedText text={props.accountName} /> : 'Inbox'}</h1>
      <SearchField />
      <button type="button" className="link-button" onClick={() => props.setOverlay('palette')} aria-keyshortcuts="Control+K Meta+K">
        Commands
      </button>
      <button type="button" className="link-button" onClick={() => props.setOverlay('shortcuts')} aria-keyshortcuts="?">
        Shortcuts
      </button>
      <OutboxStatus />
      <LiveIndicator status={props.liveStatus} link={props.link} />
      <span className="muted user-name">
        <UntrustedText text={props.userName} />
      </span>
      <SessionSwitcher />
    </header>
  );
});
