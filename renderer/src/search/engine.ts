// The local search engine: FlexSearch word indexes (one for conversations and contacts, one for
// messages) and the cache's vocabulary, for as-you-type search over a large cache. Pure: no Dexie,
// no React (local-index.ts feeds it).
//
// Why not a prefix index: measured over 200,000 messages (npm run bench, and the same corpus in
// Node), MiniSearch (prefix + fuzzy, what this replaced) answered a keystroke in 60-240 ms at the
// median and seconds at p95, built for minutes and held ~240 MB; FlexSearch's `forward` tokenizer
// (every prefix of every word indexed) answers fast but holds ~200 MB. Whole words in FlexSearch
// hold ~30 MB; the word being typed is completed here instead, from the vocabulary: its most
// common completions are searched with the words before it, whole words first.
// Matching: every word of the query (AND); the last one may be the start of a word. No typo
// tolerance (MiniSearch's fuzzy matching went with it).
import { Index } from 'flexsearch';
import type { HitKind, SearchDoc } from './documents';
import { keyOfDoc, parseKey, words } from './hit-keys';

export interface EngineHit {
  key: string;
  kind: HitKind;
  refId: number;
  conversationId: number;
  title: string;
  at: number;
  score: number;
  /** The words searched for this hit (the one being typed completed), for the snippet. */
  terms: string[];
  /** Every searched word is in the title (a message's sender): the text may not have them (see `nameOnly`). */
  inTitle: boolean;
  /** A message written by a contact: who. */
  senderContactId?: number;
}

/** How many completions of the word being typed are searched. */
const COMPLETIONS = 6;
const KINDS: readonly HitKind[] = ['conversation', 'message', 'contact'];

/** FlexSearch ids: a number per document, its kind in the low two bits. */
const idOf = (kind: HitKind, refId: number) => refId * 4 + KINDS.indexOf(kind);
const kindOfId = (id: number) => KINDS[id % 4]!;
const refIdOf = (id: number) => Math.floor(id / 4);

const newIndex = () => new Index({ tokenize: 'strict', encode: (text: string) => text.split(' '), fastupdate: true });

export class SearchEngine {
  private readonly people = newIndex();
  private readonly messages = newIndex();
  /** What a hit shows without reading the cache: its conversation, title and time. */
  private readonly meta = new Map<number, { conversationId: number; title: string; at: number; senderContactId?: number }>();
  /** How many documents each word was added in (never decremented: a stale word only costs an empty search). */
  private readonly frequency = new Map<string, number>();
  /** Words by their first two letters (one-letter words under themselves), for completing the word being typed. */
  private readonly byStart = new Map<string, string[]>();
  /** One string per title (thousands of messages share a sender's name). */
  private readonly titles = new Map<string, string>();

  get size(): number {
    return this.meta.size;
  }

  has(key: string): boolean {
    const k = parseKey(key);
    return k !== undefined && this.meta.has(idOf(k.kind, k.refId));
  }

  upsert(doc: SearchDoc): void {
    const id = idOf(doc.kind, doc.refId);
    const index = doc.kind === 'message' ? this.messages : this.people;
    const list = words(`${doc.title} ${doc.text}`);
    const text = list.join(' ');
    if (this.meta.has(id)) index.update(id, text);
    else index.add(id, text);
    for (const w of new Set(list)) this.learn(w);
    let title = this.titles.get(doc.title);
    if (title === undefined) this.titles.set(doc.title, (title = doc.title));
    this.meta.set(id, { conversationId: doc.conversationId, title, at: doc.at, ...(doc.senderContactId ? { senderContactId: doc.senderContactId } : {}) });
  }

  remove(key: string): void {
    const k = parseKey(key);
    if (!k) return;
    const id = idOf(k.kind, k.refId);
    if (!this.meta.delete(id)) return;
    (k.kind === 'message' ? this.messages : this.people).remove(id);
  }

  /** Conversations and contacts first, then messages; within each, what FlexSearch ranks first. */
  search(query: string, limit = 50): EngineHit[] {
    const terms = words(query);
    const last = terms.pop();
    if (last === undefined) return [];
    // One letter after whole words says nothing yet: the whole words alone.
    const endings: (string | undefined)[] = terms.length && last.length < 2 ? [undefined] : this.completions(last);
    const hits: EngineHit[] = [];
    const seen = new Set<number>();
    for (const index of [this.people, this.messages]) {
      for (const ending of endings) {
        if (hits.length >= limit) return hits;
        const q = ending === undefined ? terms : [...terms, ending];
        for (const id of (index.search(q.join(' '), { limit }) as number[] | undefined) ?? []) {
          if (seen.has(id) || hits.length >= limit) continue;
          const meta = this.meta.get(id);
          if (!meta) continue;
          seen.add(id);
          const kind = kindOfId(id);
          const refId = refIdOf(id);
          const titleWords = new Set(words(meta.title));
          hits.push({
            key: keyOfDoc(kind, refId),
            kind,
            refId,
            conversationId: meta.conversationId,
            title: meta.title,
            at: meta.at,
            score: limit - hits.length,
            terms: q,
            inTitle: q.every((t) => titleWords.has(t)),
            ...(meta.senderContactId ? { senderContactId: meta.senderContactId } : {}),
          });
        }
      }
    }
    return hits;
  }

  /** The word itself (when the cache has it), then its most frequent completions. */
  private completions(start: string): string[] {
    const pool: string[] = [];
    if (start.length >= 2) pool.push(...(this.byStart.get(start.slice(0, 2)) ?? []));
    else for (const [head, list] of this.byStart) if (head.startsWith(start)) pool.push(...list);
    const longer = pool.filter((w) => w !== start && w.startsWith(start));
    longer.sort((a, b) => this.frequency.get(b)! - this.frequency.get(a)!);
    return [...(this.frequency.has(start) ? [start] : []), ...longer.slice(0, COMPLETIONS)];
  }

  private learn(word: string) {
    const n = this.frequency.get(word);
    this.frequency.set(word, (n ?? 0) + 1);
    if (n !== undefined) return;
    const head = word.slice(0, 2);
    const list = this.byStart.get(head);
    if (list) list.push(word);
    else this.byStart.set(head, [word]);
  }
}
