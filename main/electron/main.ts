// Electron entry: thin glue around main/core. Everything testable lives in main/core.
import { app, BrowserWindow, session, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMainCore } from '../core/core';
import { redactingLogger } from '../core/redact';
import { memoryVault } from '../core/vault';
import { registerBridge } from './ipc';
import { registerAppSchemePrivileges, serveRenderer } from './scheme';
import { createMainWindow, preloadPathBeside } from './window';

app.enableSandbox();
registerAppSchemePrivileges();

const secrets: string[] = [];
const logger = redactingLogger((level, line) => console.error(`[${level}] ${line}`), () => secrets);
// Main core validates every URL before this opener sees it (shell.openExternal).
const core = createMainCore({ vault: memoryVault(), logger, openExternal: (url) => shell.openExternal(url) });

async function signInDemoAgent() {
  const file = process.env.AGENT_INBOX_DEMO_CREDENTIALS;
  if (!file) return;
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; agentToken: string };
  secrets.push(creds.agentToken);
  const result = await core.call('session.signIn', { baseUrl: creds.baseUrl, accessToken: creds.agentToken });
  if (!result.ok) logger.warn(`demo sign-in failed: ${result.error.message}`);
}

app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'notifications'));
  serveRenderer(process.env.AGENT_INBOX_RENDERER ?? join(__dirname, '../renderer'));
  registerBridge(core, () => BrowserWindow.getAllWindows());
  await signInDemoAgent();
  createMainWindow(preloadPathBeside(__dirname));
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createMainWindow(preloadPathBeside(__dirname)));
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
