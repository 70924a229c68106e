import type { ControlAction } from '../../engine/journal-records.js';
import type { OpsRequest, OpsResponse, OpsRoute } from '../http/ops-route.js';
import type { OpsContext } from '../ops-context.js';

/**
 * The dashboard's controls, each a POST that needs the token (the server checks it before the handler runs):
 * pause (`{ "cancelOrders": true }` also cancels the resting orders), resume, cancel-orders, stop. The runtime
 * journals and logs each before it takes effect.
 */
export function controlRoutes(c: OpsContext): OpsRoute[] {
  const strategyControl = (action: Exclude<ControlAction, 'stop'>): OpsRoute => ({
    method: 'POST',
    path: `/api/strategies/:id/${action}`,
    control: true,
    handle: (req) => {
      const cancelOrders = action === 'pause' && (req.body as { cancelOrders?: unknown } | undefined)?.cancelOrders === true;
      return answer(c.runtime.control({ action, strategyId: req.params.id!, ...(action === 'pause' ? { cancelOrders } : {}), source: source(req) }));
    },
  });
  return [
    strategyControl('pause'),
    strategyControl('resume'),
    strategyControl('cancel-orders'),
    {
      method: 'POST',
      path: '/api/stop',
      control: true,
      handle: (req) => {
        const result = c.runtime.control({ action: 'stop', source: source(req) });
        if (result.ok) c.requestStop(`stop control from ${source(req)}`);
        return answer(result);
      },
    },
  ];
}

function source(req: OpsRequest): string {
  return `http ${req.from}`;
}

function answer(r: ReturnType<OpsContext['runtime']['control']>): OpsResponse {
  return r.ok ? { status: 200, body: { ok: true, message: r.message } } : { status: r.status, body: { ok: false, error: r.message, message: r.message } };
}
