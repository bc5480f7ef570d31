// A dialog opened by a key takes the focus in the commit that shows it: the next key (Enter on a
// snooze preset, the first letter of a name) is in the field, not on the list below. With the
// focus moved after the frame, the bench's triage run (Playwright typing as soon as the dialog
// showed) lost its Enter about one run in three, and an agent typing fast would have too.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PickerDialog } from '../../renderer/src/components/PickerDialog';

const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

afterEach(() => {
  g.IS_REACT_ACT_ENVIRONMENT = true;
});

/** Where the dialog renders, and a focused element standing for the list the agent was on. */
function hostBesideFocusedList() {
  const host = document.createElement('div');
  document.body.append(host);
  const list = document.createElement('div');
  list.tabIndex = 0;
  document.body.append(list);
  list.focus();
  return { host, list };
}

describe('a picker', () => {
  it('has the focus in its field as soon as it is in the page', async () => {
    // Rendered as the app renders (no act(), which would flush every effect before returning).
    g.IS_REACT_ACT_ENVIRONMENT = false;
    const { host, list } = hostBesideFocusedList();

    // What has the focus when the dialog first appears: seen in the microtask after the DOM
    // change, before any later task (a key event, or React's passive effects) runs.
    const focusWhenShown = new Promise<Element | null>((resolve) => {
      const seen = new MutationObserver(() => {
        if (!host.querySelector('[role="dialog"]')) return;
        seen.disconnect();
        resolve(document.activeElement);
      });
      seen.observe(host, { childList: true, subtree: true });
    });
    const root = createRoot(host);
    root.render(<PickerDialog title="Snooze" inputLabel="Filter snooze options" options={[{ id: 'hour', label: 'In an hour' }]} onPick={() => undefined} onClose={() => undefined} />);
    const focused = await focusWhenShown;
    expect(focused).toBe(host.querySelector('input[aria-label="Filter snooze options"]'));

    g.IS_REACT_ACT_ENVIRONMENT = true;
    act(() => root.unmount());
    host.remove();
    list.remove();
  });

  it('closing itself, gives the focus back before it goes, not in the commit that removes it', () => {
    // There `focus()` brought the style of everything the key changed up to date: 2.5-3.2 ms of a
    // label, assign or snooze key (bench/README.md). Before the dialog's state changes, the style is
    // still the last frame's.
    const { host, list } = hostBesideFocusedList();
    const root = createRoot(host);
    const focusedAt: Record<string, Element | null> = {};
    const render = () =>
      root.render(
        <PickerDialog
          title="Assign to"
          inputLabel="Filter people"
          options={[{ id: '1', label: 'Ava' }]}
          onPick={() => void (focusedAt.pick = document.activeElement)}
          onClose={() => {
            focusedAt.close = document.activeElement;
            root.render(<></>);
          }}
        />,
      );
    act(render);
    const field = host.querySelector('input')!;
    expect(document.activeElement).toBe(field);
    act(() => field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    // The choice is made from the field; the focus is back on the list when the dialog is told to go.
    expect(focusedAt.pick).toBe(field);
    expect(focusedAt.close).toBe(list);
    expect(host.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(list);

    // Escape too.
    act(render);
    act(() => host.querySelector('input')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(focusedAt.close).toBe(list);
    expect(document.activeElement).toBe(list);
    act(() => root.unmount());
    host.remove();
    list.remove();
  });
});
