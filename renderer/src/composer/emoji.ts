// The composer's emoji: a short list of the ones support replies use, with names to search by.
// Built in rather than a picker library: the pickers on npm either fetch their emoji data at run
// time from a CDN or a URL (frimousse, emoji-picker-element; the renderer makes no network calls
// and its CSP allows none) or bundle every emoji with its own UI and styles (emoji-mart, several
// hundred KB), and an agent's replies need a few dozen. Any emoji can still be typed or pasted.

export interface Emoji {
  char: string;
  name: string;
  /** Other words that find it. */
  keywords?: string;
}

export const EMOJI: readonly Emoji[] = [
  { char: '🙂', name: 'slightly smiling face', keywords: 'smile happy' },
  { char: '😊', name: 'smiling face with smiling eyes', keywords: 'smile blush happy' },
  { char: '😀', name: 'grinning face', keywords: 'smile happy' },
  { char: '😄', name: 'grinning face with smiling eyes', keywords: 'smile laugh' },
  { char: '😅', name: 'grinning face with sweat', keywords: 'phew relief' },
  { char: '😂', name: 'face with tears of joy', keywords: 'laugh lol' },
  { char: '😉', name: 'winking face', keywords: 'wink' },
  { char: '😍', name: 'smiling face with heart-eyes', keywords: 'love' },
  { char: '🤔', name: 'thinking face', keywords: 'hmm think' },
  { char: '😮', name: 'face with open mouth', keywords: 'wow surprise' },
  { char: '😕', name: 'confused face', keywords: 'confused' },
  { char: '😢', name: 'crying face', keywords: 'sad tear' },
  { char: '😞', name: 'disappointed face', keywords: 'sad' },
  { char: '😬', name: 'grimacing face', keywords: 'oops awkward' },
  { char: '🙃', name: 'upside-down face', keywords: 'silly' },
  { char: '🤗', name: 'hugging face', keywords: 'hug thanks' },
  { char: '😎', name: 'smiling face with sunglasses', keywords: 'cool' },
  { char: '🥳', name: 'partying face', keywords: 'party celebrate' },
  { char: '👍', name: 'thumbs up', keywords: 'yes ok like agree +1' },
  { char: '👎', name: 'thumbs down', keywords: 'no dislike -1' },
  { char: '👌', name: 'OK hand', keywords: 'ok perfect' },
  { char: '👏', name: 'clapping hands', keywords: 'applause congrats' },
  { char: '🙌', name: 'raising hands', keywords: 'hooray celebrate' },
  { char: '🙏', name: 'folded hands', keywords: 'thanks please pray' },
  { char: '👋', name: 'waving hand', keywords: 'hello hi bye wave' },
  { char: '🤝', name: 'handshake', keywords: 'deal agree' },
  { char: '💪', name: 'flexed biceps', keywords: 'strong' },
  { char: '👀', name: 'eyes', keywords: 'look watching' },
  { char: '✌️', name: 'victory hand', keywords: 'peace' },
  { char: '🤞', name: 'crossed fingers', keywords: 'luck hope' },
  { char: '❤️', name: 'red heart', keywords: 'love heart' },
  { char: '💙', name: 'blue heart', keywords: 'love heart' },
  { char: '💚', name: 'green heart', keywords: 'love heart' },
  { char: '✨', name: 'sparkles', keywords: 'new shiny' },
  { char: '🎉', name: 'party popper', keywords: 'celebrate congrats tada' },
  { char: '🎊', name: 'confetti ball', keywords: 'celebrate' },
  { char: '🔥', name: 'fire', keywords: 'hot lit' },
  { char: '⭐', name: 'star', keywords: 'favourite' },
  { char: '💯', name: 'hundred points', keywords: 'perfect 100' },
  { char: '✅', name: 'check mark button', keywords: 'done yes complete' },
  { char: '✔️', name: 'check mark', keywords: 'done yes' },
  { char: '❌', name: 'cross mark', keywords: 'no wrong' },
  { char: '⚠️', name: 'warning', keywords: 'caution alert' },
  { char: '❗', name: 'exclamation mark', keywords: 'important' },
  { char: '❓', name: 'question mark', keywords: 'question' },
  { char: 'ℹ️', name: 'information', keywords: 'info' },
  { char: '💡', name: 'light bulb', keywords: 'idea tip' },
  { char: '🚀', name: 'rocket', keywords: 'launch ship fast' },
  { char: '⏳', name: 'hourglass not done', keywords: 'wait time pending' },
  { char: '⏰', name: 'alarm clock', keywords: 'time reminder' },
  { char: '📅', name: 'calendar', keywords: 'date schedule' },
  { char: '📌', name: 'pushpin', keywords: 'pin note' },
  { char: '📎', name: 'paperclip', keywords: 'attachment' },
  { char: '📧', name: 'e-mail', keywords: 'email mail' },
  { char: '📞', name: 'telephone receiver', keywords: 'phone call' },
  { char: '💬', name: 'speech balloon', keywords: 'chat message' },
  { char: '🔒', name: 'locked', keywords: 'secure lock private' },
  { char: '🔑', name: 'key', keywords: 'password access' },
  { char: '🔧', name: 'wrench', keywords: 'fix tool settings' },
  { char: '🐛', name: 'bug', keywords: 'bug issue' },
  { char: '📈', name: 'chart increasing', keywords: 'growth up' },
  { char: '💳', name: 'credit card', keywords: 'payment billing card' },
  { char: '💰', name: 'money bag', keywords: 'money refund' },
  { char: '🧾', name: 'receipt', keywords: 'invoice billing' },
  { char: '📦', name: 'package', keywords: 'shipping order box' },
  { char: '🚚', name: 'delivery truck', keywords: 'shipping delivery' },
  { char: '☕', name: 'hot beverage', keywords: 'coffee tea' },
  { char: '🌟', name: 'glowing star', keywords: 'star great' },
];

/** Emoji whose name or keywords have a word starting with each word of the query. */
export function searchEmoji(query: string, all: readonly Emoji[] = EMOJI): Emoji[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...all];
  return all.filter((e) => {
    const own = `${e.name} ${e.keywords ?? ''}`.toLowerCase().split(/[\s-]+/);
    return words.every((w) => own.some((o) => o.startsWith(w)));
  });
}
