// A link that leaves the app: through main (see platform/external-links.ts), never by navigating
// the app's own window. The href stays for screen readers and "copy link".
import type { ReactNode } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import { openExternalLink } from '../platform/external-links';

export function ExternalLink(props: { bridge: Bridge; href: string; children: ReactNode }) {
  return (
    <a
      href={props.href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(event) => {
        event.preventDefault();
        void openExternalLink(props.bridge, props.href);
      }}
    >
      {props.children}
    </a>
  );
}
