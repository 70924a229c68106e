import type { OpsRoute } from '../http/ops-route.js';
import type { OpsContext } from '../ops-context.js';
import { readiness } from './readiness.js';
import type { StatusSnapshot } from '../../engine/run-summary.js';

const startedAt = Date.now();

/** `GET /health` (the process answers: liveness) and `GET /ready` (503 with the failing checks when not ready). */
export function healthRoutes(c: OpsContext): OpsRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      control: false,
      handle: () => ({ status: 200, body: { status: 'alive', uptimeSec: Math.round((Date.now() - startedAt) / 1000) } }),
    },
    {
      method: 'GET',
      path: '/ready',
      control: false,
      handle: () => {
        const r = readinessOf(c);
        return { status: r.ready ? 200 : 503, body: r };
      },
    },
  ];
}

/** `status`: a snapshot the caller already has (the dashboard's state), else one is taken. */
export function readinessOf(c: OpsContext, status: StatusSnapshot = c.runtime.status()): ReturnType<typeof readiness> {
  return readiness({ status, venue: c.venue, events: c.events, journalWritable: () => c.journalWritable(), ...(c.deadMan ? { deadMan: c.deadMan } : {}) });
}
