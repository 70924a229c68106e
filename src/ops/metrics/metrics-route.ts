import type { OpsRoute } from '../http/ops-route.js';
import type { OpsContext } from '../ops-context.js';

/** `GET /metrics`: Prometheus text format. */
export function metricsRoutes(c: OpsContext): OpsRoute[] {
  return [
    {
      method: 'GET',
      path: '/metrics',
      control: false,
      handle: async () => ({
        status: 200,
        contentType: c.metrics.contentType,
        body: await c.metrics.scrape({
          status: () => c.runtime.status(),
          limiterStats: () => c.limiterStats(),
          streamAges: () => c.venue.ages(),
          ...(c.deadMan ? { deadMan: c.deadMan } : {}),
        }),
      }),
    },
  ];
}
