// Which live-update transport a service offers, found by asking it, not configured: socket.io
// (our service; it replays what a short drop missed) where it answers, ActionCable (/cable, real
// Chatwoot, or ours with --no-socketio) otherwise.
//
// The probe is one GET of `<prefix>/socket.io/?EIO=4&transport=websocket` without upgrade headers,
// no credential, no cookie. engine.io answers that with 400 and its error JSON (`{"code":3,
// "message":"Bad request"}`) and keeps no state for it (a polling handshake would open a session
// that lingers for 45 s). Any other answer below 500 (Rails' 404, a proxy's page) means no socket.io:
// ActionCable. No answer, a 5xx or a 429 says nothing yet: the caller tries again later.
export type LiveTransport = 'socket.io' | 'cable';

export type DetectTransport = (baseUrl: string) => Promise<LiveTransport | undefined>;

const PROBE_TIMEOUT_MS = 10_000;

/** engine.io's error answer: `{code: <number>, message: <string>}`. */
function isEngineIoError(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number' && typeof (body as { message?: unknown }).message === 'string';
  } catch {
    return false;
  }
}

export function transportDetector(fetchFn: typeof fetch = fetch): DetectTransport {
  return async (baseUrl) => {
    const base = new URL(baseUrl);
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}/socket.io/?EIO=4&transport=websocket`, base.origin);
    try {
      const res = await fetchFn(url, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (res.status >= 500 || res.status === 429) {
        await res.body?.cancel();
        return undefined;
      }
      if (res.status !== 400) {
        await res.body?.cancel();
        return 'cable';
      }
      return isEngineIoError((await res.text()).slice(0, 1_000)) ? 'socket.io' : 'cable';
    } catch {
      return undefined;
    }
  };
}
