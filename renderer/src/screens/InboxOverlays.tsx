// What the inbox shows over itself: the command palette, the sheets, the toasts and the triage
// pickers, each named by the UI store's `overlay`. Their own component, subscribed to `overlay`
// itself, so that a picker opening or closing renders this and not the inbox. The inbox
// subscribing to it cost every label, assign and snooze key a render of the inbox, and snooze a
// second one: the cursor moves on (a store write in the list's layout effect) before React's passive
// effects have told the inbox's store subscription what it last rendered, so the subscription still
// held the open picker, saw "closed" as a change, and rendered the inbox again with nothing changed
// (bench/README.md, thirty-sixth stop).
import { memo, Suspense, useCallback } from 'react';
import type { CommandRegistry } from '../commands/registry';
import type { InboxCommandContext } from '../commands/inbox-commands';
import { Toasts } from '../components/Toasts';
import { TriagePickers } from '../components/TriagePickers';
import type { Directory } from '../directory/use-directory';
import type { Overlay, PickerKind } from '../state/ui';
import { useUi } from '../state/ui';
import { CommandPalette, NotificationSettings, ShortcutsSheet, WaitingSettings } from './lazy-screens';

const pickerKinds: readonly string[] = ['assign', 'team', 'labels', 'priority', 'snooze'] satisfies PickerKind[];
const isPicker = (o: Overlay): o is PickerKind => o !== undefined && pickerKinds.includes(o);

export const InboxOverlays = memo(function InboxOverlays(props: {
  registry: CommandRegistry<InboxCommandContext>;
  context: () => InboxCommandContext;
  directory: Directory;
  onOpen(id: number): void;
}) {
  const { registry, context, directory } = props;
  const overlay = useUi((s) => s.overlay);
  const triageTargets = useUi((s) => s.triageTargets);
  const setOverlay = useUi((s) => s.setOverlay);
  const close = useCallback(() => setOverlay(undefined), [setOverlay]);
  return (
    <>
      <Suspense fallback={null}>
        {overlay === 'palette' && <CommandPalette registry={registry} context={context} onClose={close} />}
        {overlay === 'shortcuts' && <ShortcutsSheet registry={registry} onClose={close} />}
        {overlay === 'notifications' && <NotificationSettings directory={directory} onClose={close} />}
        {overlay === 'waiting' && <WaitingSettings onClose={close} />}
      </Suspense>
      <Toasts onOpen={props.onOpen} />
      {isPicker(overlay) && <TriagePickers kind={overlay} targets={triageTargets} directory={directory} onClose={close} />}
    </>
  );
});
