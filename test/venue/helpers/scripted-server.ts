import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the scripted server does with one request. */
export type Script =
  | { readonly status: number; readonly body: string; readonly contentType?: string }
  | { readonly hangUp: true }
  | { readonly delayMs: number; readonly then: Script };

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() at arrival (headers read). */
  readonly at: number;
}

export interface ScriptedServer {
  readonly baseUrl: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A tiny venue stand-in on 127.0.0.1:0 that answers each request by `answer(request, index)`: any
 * status and body (HTML, truncated JSON), a dropped connection, or a delay. Used where the sim is
 * (rightly) too well-behaved: malformed answers, lost connections, counting arrivals.
 */
export async function startScriptedServer(answer: (req: SeenRequest, index: number) => Script): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at };
      const index = seen.push(request) - 1;
      const run = (script: Script): void => {
        if ('hangUp' in script) {
          req.socket.destroy();
        } else if ('delayMs' in script) {
          setTimeout(() => run(script.then), script.delayMs);
        } else {
          res.writeHead(script.status, { 'content-type': script.contentType ?? 'application/json' });
          res.end(script.body);
        }
      };
      run(answer(request, index));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A valid contract-dialect order record. */
export function orderRecordJson(clientOrderId = 'c-1'): string {
  return JSON.stringify({
    order_id: 1,
    client_order_id: clientOrderId,
    market: 'BTC_USDT',
    side: 'buy',
    type: 'limit',
    timestamp: 1700000000.123456,
    deal_money: '0',
    deal_stock: '0',
    amount: '0.01',
    left: '0.01',
    deal_fee: '0',
    price: '30000',
    postOnly: false,
    ioc: false,
    status: 'NEW',
    stp: 'no',
    rpi: false,
  });
}
