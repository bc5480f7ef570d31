// A catalogue of a real client's calls, run in order against the live demo service: each call is a
// test. A call the spec or the compat reference covers must succeed (2xx) and its answer must have
// the shape the client's users read. A call left failing names its reason, and its test checks it
// still fails that way: it is not skipped, and it turns red the day it starts working, so the list
// of failing calls in the README stays true. The summary line counts successes.
import { afterAll, describe, expect, it } from 'vitest';

export interface Outcome {
  status: number;
  body: unknown;
  /** What was sent, for failure messages (method and URL, when the client exposes it). */
  sent?: string;
}

export interface Call<C> {
  name: string;
  run(ctx: C): Promise<Outcome>;
  /** Checks the answer's shape (the client succeeded). Bodies are third-party JSON read by path. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  shape?(body: any, ctx: C): void;
  /**
   * A call left failing: why, and the status it fails with (a client bug, a family this service
   * does not offer).
   */
  left?: { reason: string; status: number };
}

export function runCatalogue<C>(client: string, setup: () => Promise<C>, teardown: (ctx: C) => Promise<void>, calls: Call<C>[]) {
  describe(client, () => {
    let ctx: C | undefined;
    let succeeded = 0;
    const context = async () => (ctx ??= await setup());
    afterAll(async () => {
      const covered = calls.filter((c) => !c.left).length;
      console.log(`${client}: ${succeeded} of ${covered} covered calls succeed; ${calls.length - covered} more left failing`);
      if (ctx) await teardown(ctx);
    });
    for (const call of calls) {
      const title = call.left ? `${call.name} (left failing: ${call.left.reason})` : call.name;
      it(title, async () => {
        const c = await context();
        const outcome = await call.run(c);
        const where = `${call.name} → ${outcome.status} ${outcome.sent ?? ''}: ${JSON.stringify(outcome.body)?.slice(0, 300)}`;
        if (call.left) {
          expect(outcome.status, where).toBe(call.left.status);
          return;
        }
        expect(outcome.status < 300 && outcome.status >= 200, where).toBe(true);
        call.shape?.(outcome.body, c);
        succeeded++;
      });
    }
  });
}
