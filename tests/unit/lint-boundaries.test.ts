// The process boundaries are enforced by lint; this proves each rule fires on code that breaks it
// (and stays quiet on code that respects it), using the project's real ESLint config.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// One lint with the project's resolvers walks the renderer's import graph: seconds on the shared
// 2-core machine under load (measured 5 to 18 s), more than vitest's default 5 s.
vi.setConfig({ testTimeout: 60_000 });

const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', filePath) });
  return (result?.messages ?? []).filter((m) => ['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax'].includes(m.ruleId ?? '')).map((m) => m.message);
}

const cases: [string, string, string, RegExp][] = [
  ['shared/ importing Node', 'shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;", /no Node/],
  ['shared/ importing bare fs', 'shared/x.ts', "import fs from 'fs';\nexport const x = fs;", /no Node/],
  ['shared/ using the DOM', 'shared/x.ts', 'export const x = () => document.title;', /pure/],
  ['shared/ importing from main', 'shared/x.ts', "import { createMainCore } from '../main/core/core';\nexport const x = createMainCore;", /imports nothing/],
  ['main/core importing electron', 'main/core/x.ts', "import { app } from 'electron';\nexport const x = app;", /plain Node/],
  ['main/core importing the renderer', 'main/core/x.ts', "import { App } from '../../renderer/src/App';\nexport const x = App;", /shared\/ only/],
  ['renderer importing electron', 'renderer/src/x.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;", /never imports Node or electron/],
  ['renderer importing Node', 'renderer/src/x.ts', "import { join } from 'node:path';\nexport const x = join;", /no Node/],
  ['renderer importing main', 'renderer/src/x.ts', "import { createMainCore } from '../../main/core/core';\nexport const x = createMainCore;", /bridge contract/],
  ['renderer calling fetch', 'renderer/src/x.ts', "export const x = () => fetch('https://example.com');", /no network calls/],
  ['renderer opening a socket', 'renderer/src/x.ts', "export const x = () => new WebSocket('wss://example.com');", /web-transport/],
  ['renderer using process', 'renderer/src/x.ts', 'export const x = () => process.env;', /No Node/],
  ['server importing main', 'server/x.ts', "import { createMainCore } from '../main/core/core';\nexport const x = createMainCore;", /imports nothing from the app/],
  ['server importing electron', 'server/x.ts', "import { app } from 'electron';\nexport const x = app;", /plain Node service/],
  ['main/web importing electron', 'main/web/x.ts', "import { app } from 'electron';\nexport const x = app;", /without Electron/],
  // The same crossings written as dynamic imports, require() or through a global object.
  ['renderer importing electron dynamically', 'renderer/src/x.ts', "export const x = () => import('electron');", /never imports Node or electron/],
  ['renderer importing Node dynamically', 'renderer/src/x.ts', "export const x = () => import('node:fs');", /no Node built-ins/],
  ['renderer importing bare fs/promises dynamically', 'renderer/src/x.ts', "export const x = () => import('fs/promises');", /no Node built-ins/],
  ['renderer importing a computed path', 'renderer/src/x.ts', "export const x = (m: string) => import(m);", /fixed module path/],
  ['renderer calling window.fetch', 'renderer/src/x.ts', "export const x = () => window.fetch('https://example.com');", /no network calls/],
  ['renderer calling globalThis.fetch', 'renderer/src/x.ts', "export const x = () => globalThis.fetch('https://example.com');", /no network calls/],
  ['renderer opening window.WebSocket', 'renderer/src/x.ts', "export const x = () => new window.WebSocket('wss://example.com');", /no network calls/],
  ['renderer sending a beacon', 'renderer/src/x.ts', "export const x = () => navigator.sendBeacon('https://example.com', 'x');", /no network calls/],
  ['shared/ importing Node dynamically', 'shared/x.ts', "export const x = () => import('node:crypto');", /no Node built-ins/],
  ['main/core importing electron dynamically', 'main/core/x.ts', "export const x = () => import('electron');", /plain Node/],
  ['main/core requiring electron', 'main/core/x.ts', "declare const require: (m: string) => unknown;\nexport const x = () => require('electron');", /plain Node/],
  ['main/web importing electron dynamically', 'main/web/x.ts', "export const x = () => import('electron');", /without Electron/],
  ['main/electron importing the server', 'main/electron/x.ts', "import { buildService } from '../../server/app';\nexport const x = buildService;", /never imports the renderer or the server/],
  ['the preload importing the renderer', 'main/preload/x.ts', "import { App } from '../../renderer/src/App';\nexport const x = App;", /never imports the renderer or the server/],
];

async function ruleErrors(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '../..', filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

// Each case runs ESLint (type-aware rules build a TypeScript program): seconds on a quiet machine, more on a busy one.
describe('code review rules', { timeout: 60_000 }, () => {
  it('an import cycle is an error (model/ importing db/save, which imports model/)', async () => {
    const errors = await ruleErrors('import-x/no-cycle', 'renderer/src/model/intent.ts', "import { saveConversations } from '../db/save';\nexport const x = saveConversations;");
    expect(errors.join('\n')).toMatch(/cycle/i);
  });

  it('the same import in the other direction is allowed', async () => {
    expect(await ruleErrors('import-x/no-cycle', 'renderer/src/db/save.ts', "import { isLocalMessage } from '../model/intent';\nexport const x = isLocalMessage;")).toEqual([]);
  });

  it('a promise left floating is an error; awaited or marked void it is not', async () => {
    const file = 'renderer/src/sync/prefetch.ts';
    expect((await ruleErrors('@typescript-eslint/no-floating-promises', file, 'export function f(p: Promise<void>) {\n  p.then(() => 1);\n}')).join()).toMatch(/Promises must be awaited/);
    expect(await ruleErrors('@typescript-eslint/no-floating-promises', file, 'export async function f(p: Promise<void>) {\n  await p;\n  void p.then(() => 1);\n}')).toEqual([]);
  });
});

describe('process boundaries', { timeout: 60_000 }, () => {
  it.each(cases)('%s is an error', async (_name, file, code, message) => {
    const errors = await boundaryErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
  });

  it.each([
    ['shared/ importing zod', 'shared/x.ts', "import { z } from 'zod';\nexport const x = z;"],
    ['main/electron importing electron', 'main/electron/x.ts', "import { app } from 'electron';\nexport const x = app;"],
    ['main/core importing shared and Node', 'main/core/x.ts', "import { ok } from '../../shared/bridge/result';\nimport { join } from 'node:path';\nexport const x = [ok, join];"],
    ['renderer importing shared', 'renderer/src/x.ts', "import { ok } from '../../shared/bridge/result';\nexport const x = ok;"],
    ['renderer importing its own module lazily', 'renderer/src/x.ts', "export const x = () => import('./screens/Inbox');"],
    ['main/core importing Node dynamically', 'main/core/x.ts', "export const x = () => import('node:fs/promises');"],
    ['the web transport opening its socket', 'renderer/src/platform/web-transport.ts', "export const x = () => new WebSocket('ws://127.0.0.1:1/bridge');"],
    ['the head script beginning that socket', 'renderer/src/platform/early-start.ts', "export const x = () => new WebSocket('ws://127.0.0.1:1/bridge');"],
    ['server importing shared record types', 'server/x.ts', "import type { Conversation } from '../shared/api/records';\nexport type X = Conversation;"],
  ])('%s is allowed', async (_name, file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
