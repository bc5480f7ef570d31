// What a search hit's key and words are, apart from the engine: the page reads hits (their keys,
// whether a name alone found them) without loading FlexSearch, which only the index's worker needs
// (or the page, should the worker fail: index-runner.ts loads it then).
import type { HitKind } from './documents';

const PREFIX: Record<HitKind, string> = { conversation: 'c', message: 'm', contact: 'p' };
const KIND_OF: Record<string, HitKind> = { c: 'conversation', m: 'message', p: 'contact' };

/** Words as the engine sees them: lower case, letters and digits (so `#4821` is `4821`). */
export function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** A hit whose words are all in its title and none in its text was found by its title alone (a message by its sender's name). */
export function nameOnly(hit: { terms: string[]; inTitle: boolean }, text: string): boolean {
  if (!hit.inTitle) return false;
  const inText = new Set(words(text));
  return !hit.terms.some((t) => inText.has(t));
}

export const keyOfDoc = (kind: HitKind, refId: number) => `${PREFIX[kind]}:${refId}`;

export function parseKey(key: string): { kind: HitKind; refId: number } | undefined {
  const kind = KIND_OF[key[0] ?? ''];
  const refId = Number(key.slice(2));
  return kind && key[1] === ':' && Number.isSafeInteger(refId) ? { kind, refId } : undefined;
}
