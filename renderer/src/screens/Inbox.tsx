// The signed-in inbox: the conversation list beside the open conversation.
import { SessionSwitcher } from '../components/SessionSwitcher';
import { useUi } from '../state/ui';
import { useSession } from '../platform/session';
import { ConversationList } from './ConversationList';
import { ConversationView } from './ConversationView';

export function Inbox() {
  const { session } = useSession();
  const selected = useUi((s) => s.selectedConversationId);
  const account = session.accounts.find((a) => a.id === session.accountId);
  return (
    <div className="inbox">
      <header className="app-header">
        <h1>{account?.name ?? 'Inbox'}</h1>
        <span className="muted">{session.user.name}</span>
        <SessionSwitcher />
      </header>
      <div className="panes">
        <ConversationList />
        {selected === undefined ? (
          <section className="conversation placeholder" aria-label="No conversation open">
            <p>Select a conversation.</p>
          </section>
        ) : (
          <ConversationView key={selected} conversationId={selected} />
        )}
      </div>
    </div>
  );
}
