import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT<path>`. */
  readonly url: string;
  /** The JSON bodies of the POSTs answered 200. */
  readonly accepted: Record<string, unknown>[];
  /** Every POST as it came: headers (JSON) and body. */
  readonly raw: { headers: string; body: string }[];
  attempts(): number;
  close(): Promise<void>;
}

/** A local webhook receiver on loopback answering `status(n)` to the n-th POST (1-based). */
export async function webhookReceiver(status: (n: number) => number, path = '/hook'): Promise<WebhookReceiver> {
  const accepted: Record<string, unknown>[] = [];
  const raw: { headers: string; body: string }[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      n += 1;
      raw.push({ headers: JSON.stringify(req.headers), body });
      const s = status(n);
      if (s === 200) accepted.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(s).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    accepted,
    raw,
    attempts: () => n,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
