// `--demo`: a realistic support account, seeded once into an empty database. Deterministic
// (a seeded PRNG) apart from secrets, so screenshots and tests see the same shapes every run.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { addInboxMember, addToAccount, createAccount, createContactInbox, createInbox, createUser, nextDisplayId } from '../store/provision';
import * as corpus from './corpus';
import { seedExtras } from './seed-extras';

export interface DemoCredentials {
  accountId: number;
  adminToken: string;
  agentToken: string;
  agentEmail: string;
  apiInboxId: number;
  apiInboxIdentifier: string;
  apiInboxHmacToken: string;
  hmacMandatoryInboxIdentifier: string;
  widgetInboxId: number;
  websiteToken: string;
  widgetHmacToken: string;
  otherAccountId: number;
  otherAccountAdminToken: string;
  /** An agent bot of the demo account (attached to the Partner API inbox) and its access token. */
  botId: number;
  botToken: string;
}

const ADMIN_EMAIL = 'alex@acme.example';
const AGENT_EMAIL = 'sam@acme.example';
const OTHER_ADMIN_EMAIL = 'grace@globex.example';
const MINUTE = 60_000;
const DAY = 86_400_000;

/** mulberry32: small, fast, good enough for plausible fake data. */
function prng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

export function isSeeded(db: Db): boolean {
  return Boolean(stmt(db, 'SELECT 1 FROM users WHERE email = ?').get(AGENT_EMAIL));
}

/** Reads the demo's credentials back from the database (they are random, created at seed time). */
export function demoCredentials(db: Db): DemoCredentials {
  const tokenOf = (email: string) =>
    (stmt(db, "SELECT t.token FROM access_tokens t JOIN users u ON u.id = t.owner_id AND t.owner_type = 'User' WHERE u.email = ?").get(email) as { token: string }).token;
  const accountOf = (email: string) =>
    (stmt(db, 'SELECT au.account_id AS id FROM account_users au JOIN users u ON u.id = au.user_id WHERE u.email = ? ORDER BY au.account_id LIMIT 1').get(email) as { id: number }).id;
  const accountId = accountOf(AGENT_EMAIL);
  const inbox = (where: string) => stmt(db, `SELECT * FROM inboxes WHERE account_id = ? AND ${where} ORDER BY id LIMIT 1`).get(accountId) as {
    id: number;
    identifier: string;
    website_token: string;
    hmac_token: string;
  };
  const api = inbox("channel_type = 'Channel::Api' AND hmac_mandatory = 0");
  const strict = inbox("channel_type = 'Channel::Api' AND hmac_mandatory = 1");
  const widget = inbox("channel_type = 'Channel::WebWidget'");
  const bot = stmt(db, "SELECT b.id, t.token FROM agent_bots b JOIN access_tokens t ON t.owner_type = 'AgentBot' AND t.owner_id = b.id WHERE b.account_id = ? ORDER BY b.id LIMIT 1").get(accountId) as
    | { id: number; token: string }
    | undefined;
  return {
    accountId,
    adminToken: tokenOf(ADMIN_EMAIL),
    agentToken: tokenOf(AGENT_EMAIL),
    agentEmail: AGENT_EMAIL,
    apiInboxId: api.id,
    apiInboxIdentifier: api.identifier,
    apiInboxHmacToken: api.hmac_token,
    hmacMandatoryInboxIdentifier: strict.identifier,
    widgetInboxId: widget.id,
    websiteToken: widget.website_token,
    widgetHmacToken: widget.hmac_token,
    otherAccountId: accountOf(OTHER_ADMIN_EMAIL),
    otherAccountAdminToken: tokenOf(OTHER_ADMIN_EMAIL),
    botId: bot?.id ?? 0,
    botToken: bot?.token ?? '',
  };
}

interface PlannedMessage {
  conversation: number; // index into planned conversations
  type: 0 | 1 | 2;
  content: string;
  private: boolean;
  senderType: 'User' | 'Contact' | null;
  senderId: number | null;
  at: number;
  attachment?: { file_type: string; extension: string; file_size: number; name: string };
}

export function seedDemo(db: Db, now: number): DemoCredentials {
  if (isSeeded(db)) return demoCredentials(db);
  const r = prng(20261121);
  db.transaction(() => {
    const account = createAccount(db, 'Acme Support', now - 400 * DAY);
    const people = [
      { name: 'Alex Rivera', email: ADMIN_EMAIL, role: 'administrator' as const },
      { name: 'Sam Patel', email: AGENT_EMAIL, role: 'agent' as const },
      { name: 'Jordan Lee', email: 'jordan@acme.example', role: 'agent' as const },
      { name: 'Priya Shah', email: 'priya@acme.example', role: 'agent' as const },
      { name: 'Chen Wei', email: 'chen@acme.example', role: 'agent' as const },
    ];
    const users = people.map((p) => {
      const u = createUser(db, p, now - 300 * DAY);
      addToAccount(db, account, u.id, p.role, now - DAY);
      return { ...p, id: u.id };
    });
    const [admin, sam, jordan, priya, chen] = users as [typeof users[0], typeof users[0], typeof users[0], typeof users[0], typeof users[0]];

    const website = createInbox(db, account, { name: 'Website chat', kind: 'web_widget', websiteUrl: 'https://acme.example' }, now - 300 * DAY);
    const mobile = createInbox(db, account, { name: 'Mobile app', kind: 'api' }, now - 250 * DAY);
    const partner = createInbox(db, account, { name: 'Partner API', kind: 'api', hmacMandatory: true }, now - 200 * DAY);
    const email = createInbox(db, account, { name: 'Email support', kind: 'email' }, now - 280 * DAY);
    for (const [inbox, members] of [
      [website, [sam, jordan, priya]],
      [mobile, [sam, chen]],
      [partner, [jordan]],
      [email, [sam, priya, chen]],
    ] as const) {
      for (const m of members) addInboxMember(db, inbox.id, m.id);
    }
    const inboxes = [website, website, website, mobile, mobile, email, email, partner];

    const teamIds = [
      ['billing', 'Payments and invoices', [sam, priya]],
      ['technical support', 'Bugs and integrations', [jordan, chen, sam]],
      ['sales', 'Plans and upgrades', [priya]],
    ].map(([name, description, members]) => {
      const id = Number(stmt(db, 'INSERT INTO teams (account_id, name, description, created_at) VALUES (?, ?, ?, ?)').run(account, name, description, now).lastInsertRowid);
      for (const m of members as typeof users) stmt(db, 'INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run(id, m.id);
      return id;
    });
    for (const [title, description, color] of corpus.labels) {
      stmt(db, 'INSERT INTO labels (account_id, title, description, color) VALUES (?, ?, ?, ?)').run(account, title, description, color);
    }
    for (const [code, content] of corpus.cannedResponses) {
      stmt(db, 'INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(account, code, content, now, now);
    }

    // Contacts.
    const contacts: { id: number; name: string }[] = [];
    for (let i = 0; i < 150; i++) {
      const first = r.pick(corpus.firstNames);
      const last = r.pick(corpus.lastNames);
      const name = `${first} ${last}`;
      const company = r.pick(corpus.companies);
      const created = now - r.int(30, 380) * DAY;
      const id = Number(
        stmt(
          db,
          `INSERT INTO contacts (account_id, name, email, phone_number, identifier, additional_attributes, custom_attributes, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          account,
          name,
          r.chance(0.85) ? `${first}.${last}${i}@${company.toLowerCase().replace(/[^a-z]/g, '')}.example`.toLowerCase() : null,
          r.chance(0.5) ? `+3519${String(10_000_000 + i * 7919).slice(0, 8)}` : null,
          r.chance(0.4) ? `user-${1000 + i}` : null,
          JSON.stringify({ avatar_background_color: r.pick(['#FFCA99', '#C7EBFF', '#D4F5D4', '#F5D4EE']), illustration_avatar_index: r.int(0, 9), city: r.pick(corpus.cities), company_name: company }),
          JSON.stringify({ plan: r.pick(corpus.plans), seats: r.int(1, 60) }),
          created,
          created,
        ).lastInsertRowid,
      );
      contacts.push({ id, name });
    }

    // Conversations and their messages, planned first, then inserted in time order so message ids
    // interleave across conversations the way they do in a live installation.
    const agents = [sam, jordan, priya, chen];
    const planned: { inboxId: number; contactId: number; status: string; assignee: number | null; team: number | null; labels: string[]; priority: string | null; created: number }[] = [];
    const messages: PlannedMessage[] = [];
    const total = 320;
    for (let i = 0; i < total; i++) {
      const inbox = r.pick(inboxes);
      const contact = r.pick(contacts);
      const topic = r.pick(corpus.topics);
      const long = i % 64 === 5; // a handful of conversations with hundreds of messages
      const count = long ? r.int(180, 420) : r.int(2, 24);
      const created = now - r.int(1, 60) * DAY - r.int(0, 1439) * MINUTE;
      const statusRoll = r.next();
      const status = statusRoll < 0.45 ? 'open' : statusRoll < 0.6 ? 'pending' : statusRoll < 0.68 ? 'snoozed' : 'resolved';
      const assignRoll = r.next();
      const members = agents.filter((a) => stmt(db, 'SELECT 1 FROM inbox_members WHERE inbox_id = ? AND user_id = ?').get(inbox.id, a.id));
      const assignee = assignRoll < 0.35 || members.length === 0 ? null : assignRoll < 0.65 && members.includes(sam) ? sam.id : r.pick(members).id;
      const labelSet = new Set<string>([...(r.chance(0.8) ? [topic.label] : []), ...(r.chance(0.15) ? ['vip'] : []), ...(r.chance(0.1) ? ['urgent-followup'] : [])]);
      planned.push({
        inboxId: inbox.id,
        contactId: contact.id,
        status,
        assignee,
        team: r.chance(0.4) ? r.pick(teamIds) : null,
        labels: [...labelSet],
        priority: r.chance(0.4) ? r.pick(['low', 'medium', 'high', 'urgent']) : null,
        created,
      });
      let at = created;
      const step = Math.max(MINUTE, Math.floor((now - created) / (count + 2)));
      for (let m = 0; m < count; m++) {
        // Recent conversations end with the contact waiting; older ones end with an agent reply.
        const incoming = m === 0 || (m === count - 1 && status !== 'resolved' && r.chance(0.6)) || r.chance(0.45);
        const agent = assignee ?? r.pick(members.length ? members : agents).id;
        let content: string;
        if (m === 0) content = r.pick(topic.open);
        else if (incoming) content = r.chance(0.05) ? r.pick(corpus.hostile) : r.chance(0.5) ? r.pick(topic.follow) : r.pick(corpus.smallTalk);
        else content = r.pick(topic.reply);
        at += r.int(Math.floor(step / 2), step);
        if (at > now - MINUTE) at = now - MINUTE * (count - m);
        const note = !incoming && m > 1 && r.chance(0.08);
        messages.push({
          conversation: i,
          type: incoming ? 0 : 1,
          content: note ? r.pick(corpus.notes) : long ? `${content} (#${m + 1})` : content,
          private: note,
          senderType: incoming ? 'Contact' : 'User',
          senderId: incoming ? contact.id : agent,
          at,
          ...(r.chance(0.04)
            ? { attachment: r.pick([
                { file_type: 'image', extension: 'png', file_size: 184_320, name: 'screenshot.png' },
                { file_type: 'file', extension: 'pdf', file_size: 1_048_576, name: 'invoice.pdf' },
                { file_type: 'file', extension: 'csv', file_size: 2_310, name: 'export.csv' },
              ]) }
            : {}),
        });
        if (m === 1 && assignee !== null) {
          const name = users.find((u) => u.id === assignee)!.name;
          messages.push({ conversation: i, type: 2, content: `Assigned to ${name} by ${admin.name}`, private: false, senderType: null, senderId: null, at: at + 1 });
        }
      }
      if (status === 'resolved') {
        messages.push({ conversation: i, type: 2, content: 'Conversation was marked resolved by ' + (users.find((u) => u.id === assignee)?.name ?? admin.name), private: false, senderType: null, senderId: null, at: at + 1000 });
      }
    }

    // Insert conversations in creation order (display ids follow time), then messages in time order.
    const order = planned.map((_, i) => i).sort((a, b) => planned[a]!.created - planned[b]!.created);
    const dbIds = new Map<number, { id: number; inboxId: number }>();
    for (const i of order) {
      const p = planned[i]!;
      const ci = createContactInbox(db, p.contactId, p.inboxId, p.created);
      const id = Number(
        stmt(
          db,
          `INSERT INTO conversations (account_id, display_id, inbox_id, contact_id, contact_inbox_id, uuid, status, priority, assignee_id, team_id,
             snoozed_until, additional_attributes, last_activity_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(account, nextDisplayId(db, account), p.inboxId, p.contactId, ci.id, randomUUID(), p.status, p.priority, p.assignee, p.team,
          p.status === 'snoozed' ? now + r.int(1, 7) * DAY : null,
          JSON.stringify({ browser: { browser_name: r.pick(['Chrome', 'Firefox', 'Safari']), platform_name: r.pick(['macOS', 'Windows', 'Linux', 'iOS']) }, referer: 'https://acme.example/pricing' }),
          p.created, p.created, p.created).lastInsertRowid,
      );
      for (const title of p.labels) stmt(db, 'INSERT INTO conversation_labels (conversation_id, title) VALUES (?, ?)').run(id, title);
      dbIds.set(i, { id, inboxId: p.inboxId });
    }
    messages.sort((a, b) => a.at - b.at);
    const insertMessage = stmt(
      db,
      `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, private, status, sender_type, sender_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?, ?)`,
    );
    for (const m of messages) {
      const c = dbIds.get(m.conversation)!;
      const id = Number(insertMessage.run(account, c.inboxId, c.id, m.type, m.content, m.private ? 1 : 0, m.senderType, m.senderId, m.at, m.at).lastInsertRowid);
      if (m.attachment) {
        stmt(db, 'INSERT INTO attachments (message_id, account_id, file_type, extension, data_url, thumb_url, file_size, fallback_title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
          id, account, m.attachment.file_type, m.attachment.extension, `https://files.acme.example/${id}/${m.attachment.name}`,
          m.attachment.file_type === 'image' ? `https://files.acme.example/${id}/thumb.png` : null, m.attachment.file_size, m.attachment.name,
        );
      }
    }
    // Derived conversation timestamps, as the service maintains them on every message.
    db.exec(`
      UPDATE conversations SET
        last_activity_at = COALESCE((SELECT MAX(created_at) FROM messages m WHERE m.conversation_id = conversations.id), created_at),
        updated_at = COALESCE((SELECT MAX(created_at) FROM messages m WHERE m.conversation_id = conversations.id), created_at),
        first_reply_created_at = (SELECT MIN(created_at) FROM messages m WHERE m.conversation_id = conversations.id AND m.message_type = 1 AND m.private = 0),
        contact_last_seen_at = (SELECT MAX(created_at) FROM messages m WHERE m.conversation_id = conversations.id AND m.message_type = 0)
      WHERE account_id = ${account};
      UPDATE conversations SET waiting_since = (
        SELECT MIN(m.created_at) FROM messages m WHERE m.conversation_id = conversations.id AND m.message_type = 0 AND m.id > COALESCE(
          (SELECT MAX(o.id) FROM messages o WHERE o.conversation_id = conversations.id AND o.message_type = 1 AND o.private = 0), 0))
      WHERE account_id = ${account} AND status != 'resolved';
    `);
    // About a third unread: the agent last looked before the newest messages.
    for (const [i, { id }] of [...dbIds.entries()]) {
      const seenAt = i % 3 === 0 ? null : now;
      stmt(db, 'UPDATE conversations SET agent_last_seen_at = ?, assignee_last_seen_at = ? WHERE id = ?').run(seenAt, seenAt, id);
    }
    stmt(db, 'UPDATE contacts SET last_activity_at = (SELECT MAX(last_activity_at) FROM conversations c WHERE c.contact_id = contacts.id) WHERE account_id = ?').run(account);
    seedExtras(db, account, now);

    // A second tenant, so cross-account access can be tried (and must answer 404).
    const other = createAccount(db, 'Globex Corp', now - 100 * DAY);
    const grace = createUser(db, { name: 'Grace Hopper', email: OTHER_ADMIN_EMAIL }, now);
    addToAccount(db, other, grace.id, 'administrator', now);
    const globexInbox = createInbox(db, other, { name: 'Globex website', kind: 'web_widget' }, now);
    const visitor = Number(stmt(db, 'INSERT INTO contacts (account_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(other, 'Hank Scorpio', 'hank@globex.example', now, now).lastInsertRowid);
    const ci = createContactInbox(db, visitor, globexInbox.id, now);
    const conv = Number(
      stmt(db, 'INSERT INTO conversations (account_id, display_id, inbox_id, contact_id, contact_inbox_id, uuid, last_activity_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
        other, nextDisplayId(db, other), globexInbox.id, visitor, ci.id, randomUUID(), now, now, now,
      ).lastInsertRowid,
    );
    insertMessage.run(other, globexInbox.id, conv, 0, 'Globex-only message: nobody at Acme may read this.', 0, 'Contact', visitor, now, now);
  })();
  return demoCredentials(db);
}
