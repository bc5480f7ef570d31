// `GET /api`: the installation's version and health, unauthenticated, as the reference's
// ApiController answers it. Clients use it to check a base URL (n8n's credential test calls it
// without a token). `version` is the reference release whose API this service follows
// (chatwoot-compat: 4.10.0), so clients that gate features on it see what they can rely on.
import type { FastifyInstance } from 'fastify';
import { iso } from '../../presenters/time';
import type { RouteDeps } from '../deps';

const COMPATIBLE_VERSION = '4.10.0';

export function installationRoutes(deps: RouteDeps) {
  return async (app: FastifyInstance) => {
    app.get('/api', async () => ({
      version: COMPATIBLE_VERSION,
      // Rails' `to_formatted_s(:db)`: "YYYY-MM-DD HH:MM:SS" in UTC.
      timestamp: (iso(deps.clock()) ?? '').slice(0, 19).replace('T', ' '),
      queue_services: 'ok',
      data_services: 'ok',
    }));
  };
}
