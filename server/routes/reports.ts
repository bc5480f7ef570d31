// Reports v2 (chatwoot-compat §1.13), administrators only: the summary with the previous period,
// and a metric's time series. Both are throttled per user and per account in production (http/throttle.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { authenticate, requireAccount, requireAdmin } from '../http/auth';
import { boolish, oneOf } from '../http/body';
import { invalid, notFound } from '../http/errors';
import { intString, parseParams } from '../http/params';
import { accountParams } from '../http/scope';
import type { GroupBy, ReportScope } from '../reports/metrics';
import { buckets, METRICS, metricValue, summary } from '../reports/metrics';
import type { RouteDeps } from './deps';

const R = '/api/v2/accounts/:account_id/reports';
const epochSeconds = z.union([z.literal('0'), intString]).transform((v) => Number(v) * 1000);
const rangeQuery = z.object({
  type: oneOf(['account', 'agent', 'inbox', 'label', 'team']).optional(),
  id: intString.optional(),
  since: epochSeconds.optional(),
  until: epochSeconds.optional(),
  business_hours: boolish.optional(),
  timezone_offset: z.string().regex(/^-?\d{1,2}(\.\d{1,2})?$/, 'must be hours, e.g. 5.5').transform(Number).refine((h) => h >= -14 && h <= 14, 'must be within ±14 hours').optional(),
});
const seriesQuery = rangeQuery.extend({ metric: oneOf(METRICS), group_by: oneOf(['hour', 'day', 'week', 'month', 'year']).optional() });

function reportScope(scope: AccountScope, type: string, id: number | undefined, db: RouteDeps['db']): ReportScope {
  if (type === 'account') return { type: 'account' };
  if (id === undefined) throw invalid(`id is required for type ${type}`, ['id']);
  const exists =
    type === 'agent'
      ? stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(scope.accountId, id)
      : type === 'inbox'
        ? stmt(db, 'SELECT 1 FROM inboxes WHERE account_id = ? AND id = ?').get(scope.accountId, id)
        : type === 'team'
          ? stmt(db, 'SELECT 1 FROM teams WHERE account_id = ? AND id = ?').get(scope.accountId, id)
          : (stmt(db, 'SELECT title FROM labels WHERE account_id = ? AND id = ?').get(scope.accountId, id) as { title: string } | undefined);
  if (!exists) throw notFound();
  if (type === 'label') return { type: 'label', title: (exists as { title: string }).title };
  return { type: type as 'agent' | 'inbox' | 'team', id };
}

export function reportRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const prepare = <T extends typeof rangeQuery>(request: FastifyRequest, schema: T) => {
    const { account_id } = parseParams(accountParams, request.params, 'path parameter');
    const scope = requireAccount(db, authenticate(db, request), account_id);
    requireAdmin(scope);
    const q = parseParams(schema, request.query, 'query parameter') as z.output<typeof rangeQuery> & z.output<T>;
    // Working-hours arithmetic is not implemented: say so instead of answering calendar-time numbers.
    if (q.business_hours) throw invalid('business_hours reports are not supported by this service', ['business_hours']);
    const until = q.until ?? deps.clock();
    const since = q.since ?? 0;
    if (since >= until) throw invalid('since must be before until', ['since']);
    return { scope, q, since, until, target: reportScope(scope, q.type ?? 'account', q.id, db) };
  };

  app.get(`${R}/summary`, async (request) => {
    const { scope, since, until, target } = prepare(request, rangeQuery);
    return summary(db, scope.accountId, target, since, until);
  });

  // A metric per hour/day/week/month/year bucket: [{value, timestamp}] (averages also carry count).
  app.get(R, async (request) => {
    const { scope, q, since, until, target } = prepare(request, seriesQuery);
    const starts = buckets(since, until, (q.group_by ?? 'day') as GroupBy, q.timezone_offset ?? 0);
    if (!starts) throw invalid('too many buckets: narrow the range or group by a longer period (1000 at most)', ['group_by']);
    const average = q.metric.startsWith('avg_') || q.metric === 'reply_time';
    return starts.map((start, i) => {
      const { value, count } = metricValue(db, scope.accountId, target, q.metric, Math.max(start, since), Math.min(starts[i + 1] ?? until, until));
      return { value: value ?? 0, timestamp: Math.floor(start / 1000), ...(average ? { count } : {}) };
    });
  });
}
