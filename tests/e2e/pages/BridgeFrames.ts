import type { Page } from '@playwright/test';

export interface Frame {
  direction: 'sent' | 'received';
  text: string;
}

/** Records every WebSocket frame the page sends and receives (web mode's bridge). Attach before goto. */
export class BridgeFrames {
  readonly frames: Frame[] = [];
  constructor(page: Page) {
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => this.frames.push({ direction: 'sent', text: typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8') }));
      ws.on('framereceived', (f) => this.frames.push({ direction: 'received', text: typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8') }));
    });
  }
  containing = (needle: string) => this.frames.filter((f) => f.text.includes(needle));
  /** Bridge calls the page sent, by name. */
  callsNamed = (name: string) => this.frames.filter((f) => f.direction === 'sent' && parse(f.text)?.name === name);
  /** Events main pushed, by name. */
  eventsNamed = (name: string) => this.frames.filter((f) => f.direction === 'received' && parse(f.text)?.type === 'event' && parse(f.text)?.name === name).map((f) => parse(f.text)!.payload);
}

function parse(text: string): { type?: string; name?: string; payload?: unknown } | undefined {
  try {
    return JSON.parse(text) as { type?: string; name?: string; payload?: unknown };
  } catch {
    return undefined;
  }
}
