// Listens to domain events and queues webhook deliveries (chatwoot-compat §5.2 recipients):
// - account webhooks whose subscriptions include the event (one bound to an inbox only gets that
//   inbox's events);
// - for a Channel::Api inbox with a webhook_url, every inbox-scoped event, whatever the subscriptions.
// Bodies are built once per event, at the moment it happens, and only when someone will receive it.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { EventBus } from '../events/bus';
import type { WebhookQueue } from './delivery';
import { INBOX_SCOPED, WEBHOOK_NAME } from './events';
import { webhookBody } from './payloads';
import { conversationWebhookRouting } from '../store/conversations';

export function attachWebhookDispatch(db: Db, bus: EventBus, queue: WebhookQueue) {
  return bus.on((event) => {
    const name = WEBHOOK_NAME[event.name];
    if (!name) return;
    // The event's inbox and its API webhook_url in one statement (this runs on every event).
    const routing = 'conversationId' in event ? conversationWebhookRouting(db, event.conversationId) : undefined;
    const inboxId = routing?.inbox_id;
    const hooks = stmt(db, 'SELECT url, inbox_id, subscriptions FROM webhooks WHERE account_id = ?').all(event.accountId) as { url: string; inbox_id: number | null; subscriptions: string }[];
    const urls = new Set<string>();
    for (const h of hooks) {
      if (h.inbox_id != null && h.inbox_id !== inboxId) continue;
      if ((JSON.parse(h.subscriptions) as string[]).includes(name)) urls.add(h.url);
    }
    if (inboxId !== undefined && INBOX_SCOPED.has(name)) {
      const url = routing?.webhook_url;
      if (url && /^https?:\/\//i.test(url)) urls.add(url);
    }
    if (!urls.size) return;
    const body = webhookBody(db, event, name);
    if (!body) return;
    for (const url of urls) queue.enqueue(url, name, body);
  });
}
