// Permission requests and checks for the app's session: notifications for our page, nothing else.
// And, beneath the CSP, the renderer's session may not reach the network at all: main talks to
// the service with Node's fetch, which does not go through this session.
import type { Session } from 'electron';
import { isPermissionAllowed } from '../core/security/permissions';

export const BLOCKED_FROM_RENDERER = ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'ftp://*/*'];

export function lockDownSession(session: Session) {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(isPermissionAllowed(permission, details.requestingUrl)));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin));
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest({ urls: BLOCKED_FROM_RENDERER }, (_details, callback) => callback({ cancel: true }));
}
