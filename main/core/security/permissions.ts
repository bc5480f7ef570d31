// Web permissions (camera, geolocation, clipboard, …) the renderer may ask for. It needs none but
// notifications, and those only for our own page.
import { isTrustedSenderUrl } from './app-scheme';

export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined | null): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isTrustedSenderUrl(requestingUrl);
}

