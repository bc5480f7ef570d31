// Domain events: every write that the spec's live updates or webhooks care about emits one here,
// after its transaction commits. Listeners (socket.io broadcaster, webhook deliverer) build their
// own payloads from fresh rows, so an event carries identifiers, not records.
// Event names follow chatwoot-compat §4.3 (socket) — webhooks map them to snake_case names.

export interface Performer {
  type: 'user' | 'contact' | 'agent_bot';
  id: number;
}

/** `{ attr: [previous, current] }`, as Rails' previous_changes. */
export type Changes = Record<string, [unknown, unknown]>;

export type DomainEvent =
  | {
      name: 'message.created' | 'message.updated';
      accountId: number;
      conversationId: number;
      messageId: number;
      changes?: Changes;
      performer?: Performer;
      /** The sender's own correlation id for this create (not stored; echoed in the live event). */
      echoId?: string;
    }
  | {
      name:
        | 'conversation.created'
        | 'conversation.status_changed'
        | 'conversation.updated'
        | 'conversation.read'
        | 'conversation.contact_changed'
        | 'assignee.changed'
        | 'team.changed';
      accountId: number;
      /** The conversation's DB id (not the display id). */
      conversationId: number;
      changes?: Changes;
      performer?: Performer;
    }
  | { name: 'conversation.mentioned'; accountId: number; conversationId: number; userId: number; performer?: Performer }
  | { name: 'conversation.typing_on' | 'conversation.typing_off'; accountId: number; conversationId: number; typer: Performer; isPrivate: boolean }
  | { name: 'contact.created' | 'contact.updated' | 'contact.deleted' | 'contact.merged'; accountId: number; contactId: number; changes?: Changes; snapshot?: Record<string, unknown> }
  | { name: 'notification.created' | 'notification.updated' | 'notification.deleted'; accountId: number; userId: number; notificationId: number }
  /** The account's labels or teams changed (chatwoot-compat §4.3): agents read them again. `at`: the service clock (ms). */
  | { name: 'account.cache_invalidated'; accountId: number; changed: 'label' | 'team' | 'inbox'; at: number };

export type DomainEventName = DomainEvent['name'];
export type Listener = (event: DomainEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();
  /** Events emitted by a listener while another event is being delivered wait their turn. */
  private readonly queue: DomainEvent[] = [];
  private delivering = false;

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Synchronous fan-out, in emission order: an event a listener emits (a notification made for a
   * new message) reaches every listener after the event that caused it. A failing listener is
   * isolated: it cannot fail the request that emitted.
   */
  emit(event: DomainEvent): void {
    this.queue.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        for (const listener of this.listeners) {
          try {
            listener(next);
          } catch (err) {
            this.onListenerError?.(err, next);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  onListenerError?: (err: unknown, event: DomainEvent) => void;
}
