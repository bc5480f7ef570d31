// The command registry: one list of what the agent can do, read by the shortcut handler, the
// command palette and the shortcuts sheet, so a command has one name and one key everywhere.
// Phase 2 registers its triage commands (resolve, assign, label, snooze…) the same way.
import { chordOf, isTypingTarget, ownsNavigationKeys } from './keys';

export type CommandGroup = 'Navigation' | 'List' | 'Conversation' | 'Filters' | 'Sort' | 'View' | 'Search' | 'Help' | 'Triage' | 'Conflicts' | 'Notifications';

export interface Command<Ctx> {
  id: string;
  title: string;
  group: CommandGroup;
  /** Chords in keys.ts notation. The first is the one shown. */
  keys?: readonly string[];
  /** Also runs while the agent types in a field (the palette's own chord, for one). */
  whileTyping?: boolean;
  /** Also runs while a dialog is up or on its way (Escape closes it). */
  whileDialog?: boolean;
  /** Extra words the palette matches on. */
  keywords?: string;
  /** Hidden from the palette (e.g. arrow aliases), still listed on the shortcuts sheet. */
  paletteHidden?: boolean;
  enabled?(ctx: Ctx): boolean;
  run(ctx: Ctx): void;
}

/** Commands that depend on data (inboxes, labels, the number typed in the palette). */
export type CommandProvider<Ctx> = (ctx: Ctx, query: string) => Command<Ctx>[];

export class CommandRegistry<Ctx> {
  private readonly commands: Command<Ctx>[] = [];
  private readonly providers: CommandProvider<Ctx>[] = [];

  /**
   * `dialogUp`: whether a dialog is up or on its way. A picker shows only once it has read its
   * conversations and focuses its field after that, so letters typed right behind the key that
   * opened it reached this handler: `a` then "Sam" opened Snooze (`s`), and an `e` would have
   * resolved the conversation. While it says so, a key belongs to the dialog.
   */
  constructor(private readonly opts: { dialogUp?(ctx: Ctx): boolean } = {}) {}

  register(...commands: Command<Ctx>[]): this {
    for (const c of commands) {
      if (this.commands.some((x) => x.id === c.id)) throw new Error(`Command ${c.id} is registered twice`);
      const clash = c.keys?.find((k) => this.commands.some((x) => x.keys?.includes(k)));
      if (clash) throw new Error(`Shortcut ${clash} of ${c.id} is already taken`);
      this.commands.push(c);
    }
    return this;
  }

  provide(provider: CommandProvider<Ctx>): this {
    this.providers.push(provider);
    return this;
  }

  /** The static commands (with keys): what the shortcuts sheet lists. */
  all(): readonly Command<Ctx>[] {
    return this.commands;
  }

  /** What the palette offers for `query`, enabled ones only, best matches first. */
  search(ctx: Ctx, query: string): Command<Ctx>[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const pool = [...this.providers.flatMap((p) => p(ctx, query)), ...this.commands.filter((c) => !c.paletteHidden)];
    return pool
      .filter((c) => (c.enabled?.(ctx) ?? true))
      .map((c) => ({ c, score: matchScore(`${c.title} ${c.group} ${c.keywords ?? ''}`.toLowerCase(), c.title.toLowerCase(), words) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((x) => x.c);
  }

  /** The command a key press triggers here, if any. */
  forKey(ctx: Ctx, e: KeyboardEvent): Command<Ctx> | undefined {
    const chord = chordOf(e);
    const command = this.commands.find((c) => c.keys?.includes(chord));
    if (!command) return undefined;
    if (!command.whileTyping) {
      if (!command.whileDialog && this.opts.dialogUp?.(ctx)) return undefined;
      if (isTypingTarget(e.target)) return undefined;
      if (/^(Enter|ArrowUp|ArrowDown|shift\+ArrowUp|shift\+ArrowDown| )$/.test(chord) && ownsNavigationKeys(e.target)) return undefined;
    }
    return (command.enabled?.(ctx) ?? true) ? command : undefined;
  }
}

/** Every query word must appear; words at the start of the title score higher. */
function matchScore(haystack: string, title: string, words: string[]): number {
  if (words.length === 0) return 1;
  let score = 0;
  for (const w of words) {
    const at = haystack.indexOf(w);
    if (at < 0) return 0;
    score += title.startsWith(w) ? 3 : title.includes(` ${w}`) ? 2 : 1;
  }
  return score;
}
