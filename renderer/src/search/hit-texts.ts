// The texts of the hits a search shows, read from the cache by key (the index keeps none: 200,000
// texts held in memory would be the biggest thing it holds). The last few hundred are kept, since
// the next keystroke finds mostly the same hits; a change to a document forgets its text.
import type { Table } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { HitKind, SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import { parseKey } from './hit-keys';

/** Texts kept once read (the hits of the last few queries). */
const KEPT = 500;

export class HitTexts {
  private readonly byKey = new Map<string, string>();
  /** Counts the changes forgotten: a read that a change overtook is used once, not kept. */
  private changes = 0;

  constructor(private readonly db: InboxDb) {}

  /** The text kept for this key, if any (no read). */
  kept(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** A document changed or went: its text is read again when next shown. */
  forget(key: string): void {
    this.byKey.delete(key);
    this.changes++;
  }

  /** The texts of these keys ('' for one the cache no longer holds or could not be read). */
  async read(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const wanted: Record<HitKind, number[]> = { conversation: [], message: [], contact: [] };
    for (const key of keys) {
      const known = this.byKey.get(key);
      const k = parseKey(key);
      if (known !== undefined) out.set(key, known);
      else if (k) wanted[k.kind].push(k.refId);
    }
    const before = this.changes;
    const fetched = new Map<string, string>();
    const from = async <T>(table: Table<T, number>, ids: number[], toDoc: (row: T) => SearchDoc | undefined) => {
      if (!ids.length) return;
      for (const row of await table.bulkGet(ids)) {
        const doc = row && toDoc(row);
        if (doc) fetched.set(doc.key, doc.snippet);
      }
    };
    try {
      await Promise.all([from(this.db.conversations, wanted.conversation, conversationDoc), from(this.db.messages, wanted.message, messageDoc), from(this.db.contacts, wanted.contact, contactDoc)]);
    } catch {
      // The cache is closing (sign-out) or failed: the hits show without their texts.
    }
    const keep = this.changes === before;
    for (const [key, text] of fetched) {
      out.set(key, text);
      if (keep) this.byKey.set(key, text);
    }
    for (const key of out.keys()) {
      // Most recently shown last, so the oldest go first.
      const text = this.byKey.get(key);
      if (text === undefined) continue;
      this.byKey.delete(key);
      this.byKey.set(key, text);
    }
    for (const key of this.byKey.keys()) {
      if (this.byKey.size <= KEPT) break;
      this.byKey.delete(key);
    }
    return out;
  }
}
