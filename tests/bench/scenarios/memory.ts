// Memory: the renderer's JavaScript heap after browsing (opening conversations, triage, searching,
// the hostile messages), with the whole cache loaded: used heap after a forced garbage collection,
// through the DevTools protocol: the page's heap and its workers' (the search index runs in one,
// renderer/src/search/index-runner.ts), each measured and summed.
import type { Browser, Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute } from '../../../scripts/bench/figures';

interface Heap {
  usedSize: number;
  totalSize: number;
}

export async function benchMemory(page: Page, what: string): Promise<Figure[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const pageHeap = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  const workers = await workerHeaps(page.context().browser()!);
  const mb = (n: number) => n / 1024 / 1024;
  const used = pageHeap.usedSize + workers.reduce((sum, w) => sum + w.heap.usedSize, 0);
  const reserved = pageHeap.totalSize + workers.reduce((sum, w) => sum + w.heap.totalSize, 0);
  const parts = [`page ${mb(pageHeap.usedSize).toFixed(0)} MB`, ...workers.map((w) => `worker ${w.name || w.url.split('/').at(-1)} ${mb(w.heap.usedSize).toFixed(0)} MB`)].join(', ');
  return [absolute('memory: renderer JS heap after browsing', mb(used), 'MB', '< 200 MB', (v) => v < 200, `${what}; ${parts}; heap reserved ${mb(reserved).toFixed(0)} MB`)];
}

/**
 * Each dedicated worker's used heap after forced garbage collection. Playwright opens DevTools
 * sessions on pages only, so the worker is reached through the browser's session: attached to,
 * and spoken to through Target.sendMessageToTarget.
 */
async function workerHeaps(browser: Browser): Promise<{ name: string; url: string; heap: Heap }[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const out: { name: string; url: string; heap: Heap }[] = [];
    for (const t of targetInfos.filter((i) => i.type === 'worker')) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
      let nextId = 1;
      const ask = <T>(method: string) =>
        new Promise<T>((resolve, reject) => {
          const id = nextId++;
          const listener = (event: { sessionId?: string; message: string }) => {
            if (event.sessionId !== sessionId) return;
            const reply = JSON.parse(event.message) as { id?: number; result?: T; error?: { message: string } };
            if (reply.id !== id) return;
            cdp.off('Target.receivedMessageFromTarget', listener);
            if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
            else resolve(reply.result!);
          };
          cdp.on('Target.receivedMessageFromTarget', listener);
          void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
        });
      await ask('HeapProfiler.enable');
      for (let i = 0; i < 3; i++) await ask('HeapProfiler.collectGarbage');
      out.push({ name: t.title, url: t.url, heap: await ask<Heap>('Runtime.getHeapUsage') });
      await cdp.send('Target.detachFromTarget', { sessionId });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}
