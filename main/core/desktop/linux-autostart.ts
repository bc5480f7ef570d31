// Launch at login on Linux, where Electron's app.setLoginItemSettings does nothing: an XDG
// autostart entry (~/.config/autostart/<name>.desktop). Plain Node, so it is tested directly.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LaunchAtLogin } from './host';

/** Quotes one argument of a desktop entry's Exec key (Desktop Entry spec, "The Exec key"). */
export function quoteExecArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartEntry(opts: { name: string; exec: readonly string[] }): string {
  // A newline in a name or path would start a new key; nothing we write may contain one.
  if ([opts.name, ...opts.exec].some((s) => /[\r\n]/.test(s))) throw new Error('Autostart entries cannot contain line breaks.');
  return ['[Desktop Entry]', 'Type=Application', 'Version=1.0', `Name=${opts.name}`, `Exec=${opts.exec.map(quoteExecArg).join(' ')}`, 'X-GNOME-Autostart-enabled=true', ''].join('\n');
}

export function linuxAutostart(opts: { configDir: string; fileName: string; name: string; exec: readonly string[] }): LaunchAtLogin {
  const file = join(opts.configDir, 'autostart', `${opts.fileName}.desktop`);
  return {
    async get() {
      try {
        const text = await readFile(file, 'utf8');
        return !/^Hidden\s*=\s*true\s*$/im.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/im.test(text);
      } catch {
        return false;
      }
    },
    async set(enabled) {
      if (!enabled) return void (await rm(file, { force: true }));
      await writeTextAtomic(file, autostartEntry(opts));
    },
  };
}

/** Temp file + rename, so a half-written entry never starts anything. Autostart entries are not secret (0644). */
async function writeTextAtomic(file: string, text: string) {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  await writeFile(temp, text, { mode: 0o644 });
  await rename(temp, file);
}
