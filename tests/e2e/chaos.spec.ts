// The fault-injection suite's short seeded run, every CI run (the full one: `npm run chaos`, see
// tests/README.md). The same driver and judge as the full run, with fewer actions and shorter
// holds so it fits the CI budget: the real UI, the web host as a child process, the service, and
// the seeded fault proxy between them. The run fails on any lost, duplicated, reverted or unshown
// action, a screen that differs from the service, or an outbox that does not drain.
import { writeFileSync, mkdirSync } from 'node:fs';
import { passed, runChaos, summary } from '../chaos/run';
import { expect, test } from './fixtures';

const seed = Number(process.env.CHAOS_SEED ?? 11);

test(`chaos, short seeded run (seed ${seed}): nothing lost, doubled or undone; the screen equals the service`, async ({ page }) => {
  test.setTimeout(6 * 60_000);
  const result = await runChaos({
    page,
    seed,
    actions: 60,
    conversations: 8,
    faultRate: 0.4,
    // Held past the client's timeout and delivered late, in seconds rather than minutes.
    maxHoldMs: 12_000,
    requestTimeoutMs: 4_000,
    reloadRate: 0.04,
    restartRate: 0.03,
    drainTimeoutMs: 3 * 60_000,
    log: (line) => console.log(line),
  });
  const text = summary(result);
  console.log(text);
  mkdirSync('test-results/chaos', { recursive: true });
  writeFileSync(`test-results/chaos/ci-${seed}.json`, JSON.stringify(result, null, 2));
  // A run that faulted nothing would prove nothing.
  expect(result.faultedShare, 'share of requests faulted during the storm').toBeGreaterThanOrEqual(0.3);
  expect(result.messagesSent, 'messages sent').toBeGreaterThan(0);
  expect(passed(result), text).toBe(true);
});
