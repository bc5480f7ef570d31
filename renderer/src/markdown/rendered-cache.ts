// Rendered messages kept by their text: switching back to a conversation mounts its bubbles again,
// and parsing and sanitizing each one again was most of a bubble's cost. Bounded (the most recently
// used 300, texts up to 4,000 characters), and the HTML is a pure function of the text. A module of
// its own, apart from the markdown code (which loads only with the conversation screen), so the
// session's client can forget it when the session closes or is signed out without loading that code.
const KEPT = 300;
const MAX_TEXT = 4_000;
const rendered = new Map<string, string>();

export function keptRendering(text: string, render: (text: string) => string): string {
  if (text.length > MAX_TEXT) return render(text);
  const held = rendered.get(text);
  if (held !== undefined) {
    // Most recently used last, so the oldest goes first.
    rendered.delete(text);
    rendered.set(text, held);
    return held;
  }
  const html = render(text);
  rendered.set(text, html);
  if (rendered.size > KEPT) rendered.delete(rendered.keys().next().value!);
  return html;
}

/** Forgets every rendered message: no message text outlives its session in memory. */
export function forgetRendered(): void {
  rendered.clear();
}

/** How many rendered messages are kept (for tests). */
export const renderedKept = () => rendered.size;
