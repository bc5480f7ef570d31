// A settings screen over the inbox (notifications, waiting-time colours): the app's modal sheet
// (ModalSheet: named by its heading, Esc or a click outside closes it), styled as settings, with
// the caller's header controls and no Close of its own (the screens focus their first control).
import type { ReactNode } from 'react';
import { ModalSheet } from './ModalSheet';

export function SettingsSheet(props: { titleId: string; title: string; className?: string; onClose(): void; headerExtra?: ReactNode; children: ReactNode }) {
  return (
    <ModalSheet titleId={props.titleId} title={props.title} className={`settings${props.className ? ` ${props.className}` : ''}`} actions={props.headerExtra} closeButton={false} onClose={props.onClose}>
      {props.children}
    </ModalSheet>
  );
}
