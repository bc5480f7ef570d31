// The composer: reply or private note, `/` for canned responses, `@` to mention an agent in a
// note, Enter or Ctrl/Cmd+Enter to send (a preference), and a draft per conversation that
// survives restarts. Files come by the Attach button, paste or drop (composer/attachments.ts); the
// text is then their caption. Sending queues the message in the outbox (composer/send.ts): it
// shows in the conversation at once, and the box clears once it is safely queued.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { readFiles } from '../composer/attachments';
import { usePendingFiles } from '../composer/draft-files';
import { useDraft } from '../composer/drafts';
import { sendComposedMessage, sendProblem } from '../composer/send';
import type { ActiveToken } from '../composer/tokens';
import { activeToken, matchAgents, matchCanned, mentionMarkup, replaceToken } from '../composer/tokens';
import type { ComposerMode } from '../db/schema';
import { useDirectory } from '../directory/use-directory';
import { displayChord } from '../commands/keys';
import { useSession } from '../platform/session';
import type { SendKey } from '../state/preferences';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';
import { AttachmentTray } from './AttachmentTray';
import type { Suggestion } from './SuggestionList';
import { SuggestionList } from './SuggestionList';
import { EmojiButton } from './EmojiPicker';

/** Whether this key press sends, under the agent's preference. */
/**
 * Whether this key press sends. Never while an input method is composing: there Enter confirms
 * the word being composed (Japanese, Chinese, Korean input), it does not send.
 */
export function isSendKey(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'> & { isComposing?: boolean }, pref: SendKey): boolean {
  if (e.key !== 'Enter' || e.altKey || e.isComposing) return false;
  const mod = e.ctrlKey || e.metaKey;
  return pref === 'enter' ? !e.shiftKey && !mod : mod;
}

export function Composer({ conversationId }: { conversationId: number }) {
  const { db, client } = useSession();
  const directory = useDirectory();
  const sendKey = usePreferences((s) => s.sendKey);
  const setSendKey = usePreferences((s) => s.setSendKey);
  const focusRequest = useUi((s) => s.composerFocus);
  const notify = useUi((s) => s.notify);
  const draft = useDraft(db, conversationId);
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<number>();
  const [active, setActive] = useState(0);
  const pending = usePendingFiles(db, conversationId, notify);
  const [dragging, setDragging] = useState(false);

  // Leaving the conversation ends the agent's typing there.
  useEffect(() => () => client.typing.stopped(), [client, conversationId]);

  // r / n from anywhere: switch mode and put the caret in the box.
  const handled = useRef(focusRequest?.n);
  useEffect(() => {
    if (!focusRequest || focusRequest.n === handled.current || !draft.loaded) return;
    handled.current = focusRequest.n;
    draft.setMode(focusRequest.mode);
    area.current?.focus();
  }, [focusRequest, draft]);

  const token: ActiveToken | undefined = useMemo(() => {
    const t = activeToken(draft.text, caret);
    if (!t || t.start === dismissed) return undefined;
    return t.trigger === '@' && draft.mode !== 'note' ? undefined : t;
  }, [draft.text, caret, dismissed, draft.mode]);

  const canned = token?.trigger === '/' ? matchCanned(directory.cannedResponses, token.query) : [];
  const agents = token?.trigger === '@' ? matchAgents(directory.agents, token.query) : [];
  const suggestions: Suggestion[] = token?.trigger === '/'
    ? canned.map((c) => ({ id: `canned-${c.id}`, label: `/${c.short_code}`, detail: c.content }))
    : agents.map((a) => ({ id: `agent-${a.id}`, label: a.available_name || a.name, detail: a.email }));
  const open = suggestions.length > 0;
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));

  // After an insertion the caret goes right after it, in the same commit as the new text: later
  // (a frame later) would move it under keys the agent already typed.
  const pendingCaret = useRef<number>(undefined);
  useLayoutEffect(() => {
    if (pendingCaret.current === undefined) return;
    area.current?.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = undefined;
  });
  const apply = (next: { text: string; caret: number }) => {
    pendingCaret.current = next.caret;
    draft.setText(next.text);
    setCaret(next.caret);
  };

  const pick = (index: number) => {
    if (!token) return;
    if (token.trigger === '/') {
      const c = canned[index];
      if (c) apply(replaceToken(draft.text, token, c.content));
    } else {
      const a = agents[index];
      if (a) apply(replaceToken(draft.text, token, mentionMarkup(a)));
    }
    setActive(0);
  };

  // One send at a time: a second Ctrl+Enter while the first is being queued sends nothing more.
  const sending = useRef(false);
  const submit = async () => {
    const text = draft.text;
    const chosen = pending.files;
    const problem = sendProblem(text, chosen.length);
    if (problem) {
      if (text.trim()) notify(problem);
      return;
    }
    if (sending.current) return;
    sending.current = true;
    client.typing.stopped();
    draft.holdForSend();
    try {
      const files = chosen.length ? await readFiles(chosen) : undefined;
      await sendComposedMessage(client.actions.context, { conversationId, text, mode: draft.mode, ...(files ? { files } : {}) });
      draft.sentOut(text);
      pending.clear();
    } catch {
      draft.sendFailed();
      notify('The message could not be queued on this computer. Your draft is kept.');
    } finally {
      sending.current = false;
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pick(activeIndex);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(token!.start);
        return;
      }
    }
    // keyCode 229: Safari's way of saying an input method is composing.
    if (isSendKey({ key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, isComposing: e.nativeEvent.isComposing || e.keyCode === 229 }, sendKey)) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape') {
      // Leave the box (the draft stays); shortcuts work again.
      e.currentTarget.blur();
    }
  };

  const setMode = (m: ComposerMode) => {
    draft.setMode(m);
    area.current?.focus();
  };

  const listId = `composer-suggestions-${conversationId}`;
  const sendChord = sendKey === 'enter' ? 'Enter' : displayChord('mod+Enter');
  return (
    <form
      className={`composer ${draft.mode}${dragging ? ' dropping' : ''}`}
      aria-label="Compose"
      onSubmit={(e) => (e.preventDefault(), void submit())}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        pending.add(e.dataTransfer.files);
      }}
    >
      <div className="composer-modes" role="group" aria-label="Message type">
        {(['reply', 'note'] as const).map((m) => (
          <button key={m} type="button" aria-pressed={draft.mode === m} className="mode" onClick={() => setMode(m)}>
            {m === 'reply' ? 'Reply' : 'Private note'}
          </button>
        ))}
      </div>
      {open && <SuggestionList id={listId} label={token!.trigger === '/' ? 'Canned responses' : 'Agents'} items={suggestions} active={activeIndex} onPick={pick} />}
      <textarea
        ref={area}
        aria-label={draft.mode === 'reply' ? 'Reply to the contact' : 'Private note for your team'}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-expanded={open}
        aria-activedescendant={open ? `${listId}-${activeIndex}` : undefined}
        role="combobox"
        placeholder={draft.mode === 'reply' ? 'Reply… ( / for canned responses )' : 'Private note… ( @ to mention, / for canned responses )'}
        value={draft.text}
        disabled={!draft.loaded}
        rows={3}
        onChange={(e) => {
          draft.setText(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
          if (e.target.value.trim()) client.typing.typed(conversationId, draft.mode === 'note');
          else client.typing.stopped();
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={(e) => {
          // A pasted screenshot or copied files: they go with the message; text pastes as usual.
          if (!e.clipboardData.files.length) return;
          e.preventDefault();
          pending.add(e.clipboardData.files);
        }}
        onBlur={() => {
          draft.flush();
          client.typing.stopped();
        }}
      />
      <AttachmentTray pending={pending} disabled={!draft.loaded} />
      <div className="composer-footer">
        <EmojiButton
          onPick={(char) => apply({ text: draft.text.slice(0, caret) + char + draft.text.slice(caret), caret: caret + char.length })}
          onDone={() => area.current?.focus()}
        />
        <label className="send-key">
          <span>Send with</span>
          <select value={sendKey} onChange={(e) => setSendKey(e.target.value as SendKey)}>
            <option value="mod-enter">{displayChord('mod+Enter')}</option>
            <option value="enter">Enter</option>
          </select>
        </label>
        <button type="submit" className="send" disabled={!draft.text.trim() && pending.files.length === 0}>
          {draft.mode === 'reply' ? 'Send' : 'Add note'} <kbd>{sendChord}</kbd>
        </button>
      </div>
    </form>
  );
}

