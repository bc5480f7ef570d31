// Reports v2 (chatwoot-compat §1.13), administrators only: the summary with the previous period, a
// metric's time series, and the live conversation counts of the account or per agent
// (`reports/conversations?type=account|agent`). Throttled per user and per account in production
// (http/throttle.ts). Registered under `/api/v2/accounts/:account_id`.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { boolish, oneOf } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { agentPartial } from '../../presenters/people';
import type { GroupBy, ReportScope } from '../../reports/metrics';
import { buckets, METRICS, metricValue, summary } from '../../reports/metrics';
import { accountAgents, openConversationCounts, reportTarget } from '../../store/reports';
import type { RouteDeps } from '../deps';

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
const conversationsQuery = z.object({ type: oneOf(['account', 'agent']), user_id: intString.optional(), page: intString.optional() });
const AGENTS_PAGE_SIZE = 25;

export function reportRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const config = { access: 'administrator' as const };
    /** The period and what it is about; business hours are not implemented, so they are refused rather than answered in calendar time. */
    const prepare = (accountId: number, q: z.output<typeof rangeQuery>) => {
      if (q.business_hours) throw invalid('business_hours reports are not supported by this service', ['business_hours']);
      const until = q.until ?? deps.clock();
      const since = q.since ?? 0;
      if (since >= until) throw invalid('since must be before until', ['since']);
      const type = q.type ?? 'account';
      if (type === 'account') return { since, until, target: { type: 'account' } satisfies ReportScope as ReportScope };
      if (q.id === undefined) throw invalid(`id is required for type ${type}`, ['id']);
      const target = reportTarget(db, accountId, type, q.id);
      if (!target) throw notFound();
      return { since, until, target };
    };

    app.get('/reports/summary', { config, schema: { querystring: rangeQuery } }, async (request) => {
      const { since, until, target } = prepare(request.caller.accountId, request.query);
      return summary(db, request.caller.accountId, target, since, until);
    });

    // A metric per hour/day/week/month/year bucket: [{value, timestamp}] (averages also carry count).
    app.get('/reports', { config, schema: { querystring: seriesQuery } }, async (request) => {
      const q = request.query;
      const { since, until, target } = prepare(request.caller.accountId, q);
      const starts = buckets(since, until, (q.group_by ?? 'day') as GroupBy, q.timezone_offset ?? 0);
      if (!starts) throw invalid('too many buckets: narrow the range or group by a longer period (1000 at most)', ['group_by']);
      const average = q.metric.startsWith('avg_') || q.metric === 'reply_time';
      return starts.map((start, i) => {
        const { value, count } = metricValue(db, request.caller.accountId, target, q.metric, Math.max(start, since), Math.min(starts[i + 1] ?? until, until));
        return { value: value ?? 0, timestamp: Math.floor(start / 1000), ...(average ? { count } : {}) };
      });
    });

    // Live counts: the account's `{open, unattended, unassigned, pending}`, or per agent
    // `[{id, name, email, thumbnail, availability, metric: {open, unattended}}]` (25 a page; one with user_id).
    app.get('/reports/conversations', { config, schema: { querystring: conversationsQuery } }, async (request) => {
      const { accountId } = request.caller;
      const q = request.query;
      if (q.type === 'account') return openConversationCounts(db, accountId);
      const page = q.page ?? 1;
      return accountAgents(db, accountId, q.user_id)
        .slice((page - 1) * AGENTS_PAGE_SIZE, page * AGENTS_PAGE_SIZE)
        .map((user) => {
          const agent = agentPartial(db, user, accountId);
          const { open, unattended } = openConversationCounts(db, accountId, user.id);
          return { id: agent.id, name: agent.name, email: agent.email, thumbnail: agent.thumbnail, availability: agent.availability_status, metric: { open, unattended } };
        });
    });
  };
}
