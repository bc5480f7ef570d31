// A session whose cache already holds 80 conversations (assigned to agent 2, the newest id 80
// first), as a cold open finds it: for the early read and the list's first render.
import { sessionDbName } from '../../../renderer/src/client/inbox-client';
import { saveConversations } from '../../../renderer/src/db/save';
import { InboxDb } from '../../../renderer/src/db/schema';
import { conv } from '../fixtures';
import { testSession } from './render';

export async function seededCache() {
  const session = testSession();
  const name = sessionDbName(session.id);
  const db = new InboxDb(name);
  await saveConversations(db, Array.from({ length: 80 }, (_, i) => conv(i + 1, { assignee: 2, lastActivityAt: 1_000 + i })));
  db.close();
  return { session, name };
}
