// The search index in a worker of its own (started by index-runner.ts): building it over a large
// cache (200,000 messages) allocates and computes for tens of seconds, and on the page that work
// took turns with the agent's keys and clicks, and its garbage was collected in the page's frames.
// Here it runs beside the page. A dedicated worker hears only the page that started it.
import { InboxDb } from '../db/schema';
import type { FromIndexWorker, ToIndexWorker } from './index-protocol';
import { serveIndex } from './index-protocol';

const scope = self as unknown as { postMessage(message: FromIndexWorker): void; onmessage: ((e: MessageEvent<ToIndexWorker>) => void) | null };
const handle = serveIndex((message) => scope.postMessage(message), (name) => new InboxDb(name));
scope.onmessage = (event) => handle(event.data);
