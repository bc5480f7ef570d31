// Memory: the renderer's JavaScript heap after browsing (opening conversations, triage, searching,
// the hostile messages), with the whole cache loaded: used heap after a forced garbage collection,
// through the DevTools protocol.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute } from '../../../scripts/bench/figures';

export async function benchMemory(page: Page, what: string): Promise<Figure[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  const mb = usedSize / 1024 / 1024;
  return [absolute('memory: renderer JS heap after browsing', mb, 'MB', '< 200 MB', (v) => v < 200, `${what}; heap reserved ${(totalSize / 1024 / 1024).toFixed(0)} MB`)];
}
