// The word being typed at the caret, when it starts with `/` (canned responses) or `@` (mention an
// agent in a note), and how a choice replaces it.
import type { Agent, CannedResponse } from '../../../shared/api/directory';

export interface ActiveToken {
  trigger: '/' | '@';
  query: string;
  /** Where the token (including its trigger) starts and ends in the text. */
  start: number;
  end: number;
}

/** The `/word` or `@word` that ends at the caret, starting a line or after a space. */
export function activeToken(text: string, caret: number): ActiveToken | undefined {
  const before = text.slice(0, caret);
  const m = /(?:^|\s)([/@])([^\s/@]{0,50})$/.exec(before);
  if (!m) return undefined;
  const trigger = m[1] as '/' | '@';
  const query = m[2] ?? '';
  return { trigger, query, start: caret - query.length - 1, end: caret };
}

export function replaceToken(text: string, token: ActiveToken, insertion: string): { text: string; caret: number } {
  const next = text.slice(0, token.start) + insertion + text.slice(token.end);
  return { text: next, caret: token.start + insertion.length };
}

/** The service's mention markup: `[@Name](mention://user/<id>/<name>)`. */
export function mentionMarkup(agent: Pick<Agent, 'id' | 'name' | 'available_name'>): string {
  const name = (agent.available_name || agent.name).replace(/[[\]()]/g, '');
  return `[@${name}](mention://user/${agent.id}/${encodeURIComponent(name)}) `;
}

/** Canned responses for `/query`, ranked as the service ranks them: short code prefix, short code, content. */
export function matchCanned(all: readonly CannedResponse[], query: string, limit = 8): CannedResponse[] {
  const q = query.toLowerCase();
  const rank = (c: CannedResponse) => {
    const code = c.short_code.toLowerCase();
    if (!q || code.startsWith(q)) return 3;
    if (code.includes(q)) return 2;
    if (c.content.toLowerCase().includes(q)) return 1;
    return 0;
  };
  return all
    .map((c) => ({ c, r: rank(c) }))
    .filter((x) => x.r > 0)
    .sort((a, b) => b.r - a.r || a.c.short_code.localeCompare(b.c.short_code))
    .slice(0, limit)
    .map((x) => x.c);
}

export function matchAgents(all: readonly Agent[], query: string, limit = 8): Agent[] {
  const q = query.toLowerCase();
  return all
    .filter((a) => !q || (a.available_name || a.name).toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || a.email.toLowerCase().startsWith(q))
    .slice(0, limit);
}
