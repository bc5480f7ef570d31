// What a local hit shows: the engine's hit (engine.ts) with its text read from the cache
// (hit-texts.ts) and cut around the match. Made where the index runs (its worker, in the app), so a
// keystroke's answer reaches the page ready to render: the page neither reads the cache for it nor
// scans the texts, and the results paint once, snippets and all, rather than twice.
import type { HitKind } from './documents';
import type { EngineHit } from './engine';
import { nameOnly } from './hit-keys';
import { oneLine, snippetAround } from './snippet';

export interface LocalHit {
  key: string;
  kind: HitKind;
  refId: number;
  conversationId: number;
  title: string;
  /** What the result shows of its text: a message's cut around the match, else one line. */
  snippet: string;
  at: number;
  /** A message found by its sender's name alone (none of the words is in its text): merge.ts groups these by contact. */
  nameOnly: boolean;
  /** A message written by a contact: who. */
  senderContactId?: number;
}

/** `text`: the hit's whole text as the cache holds it ('' when it could not be read). */
export function shownHit(hit: EngineHit, text: string): LocalHit {
  return {
    key: hit.key,
    kind: hit.kind,
    refId: hit.refId,
    conversationId: hit.conversationId,
    title: hit.title,
    snippet: hit.kind === 'message' ? snippetAround(text, hit.terms) : oneLine(text),
    at: hit.at,
    // Until its text is read, a hit on the title's words counts as the name's.
    nameOnly: hit.kind === 'message' && nameOnly(hit, text),
    ...(hit.senderContactId ? { senderContactId: hit.senderContactId } : {}),
  };
}
