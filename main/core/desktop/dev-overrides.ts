// Environment overrides that `npm start` and the tests use to point the desktop app at a demo:
// another user-data folder, another renderer build, demo credentials to sign in with. A packaged
// app ignores them all, so nothing in an agent's environment can redirect an installed app to
// other files or sign it in as someone else.
export interface DevOverrides {
  userData?: string;
  rendererDir?: string;
  demoCredentialsFile?: string;
}

export function devOverrides(env: Record<string, string | undefined>, isPackaged: boolean): DevOverrides {
  const out: DevOverrides = {};
  if (isPackaged) return out;
  if (env.AGENT_INBOX_USER_DATA) out.userData = env.AGENT_INBOX_USER_DATA;
  if (env.AGENT_INBOX_RENDERER) out.rendererDir = env.AGENT_INBOX_RENDERER;
  if (env.AGENT_INBOX_DEMO_CREDENTIALS) out.demoCredentialsFile = env.AGENT_INBOX_DEMO_CREDENTIALS;
  return out;
}
