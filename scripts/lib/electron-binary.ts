// Whether Electron can start here, and if not, one line saying why.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export function electronBinary(env: NodeJS.ProcessEnv = process.env): { path: string } | { reason: string } {
  let path: unknown;
  try {
    path = createRequire(import.meta.url)('electron');
  } catch {
    return { reason: 'no Electron binary is installed (its download was skipped or is unreachable from this machine)' };
  }
  if (typeof path !== 'string' || !existsSync(path)) return { reason: `the Electron binary is missing (${String(path)})` };
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: 'there is no display to open a window on (DISPLAY is not set)' };
  return { path };
}
