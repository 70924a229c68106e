import { z } from 'zod';
import { zIntLike } from './decimal-schema.js';

/** `host:port`, IPv6 in brackets (`[::1]:9464`); port 0 takes a free one (tests). */
const LISTEN = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export function parseListen(text: string): ListenAddress | undefined {
  const m = LISTEN.exec(text);
  if (m === null) return undefined;
  const port = Number(m[3]);
  return port <= 65535 ? { host: (m[1] ?? m[2])!, port } : undefined;
}

/** Loopback only: 127.0.0.0/8, ::1 and localhost. Anything else is reachable from other machines. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** An empty string (`${BOT_HTTP_TOKEN:-}` with the variable unset) means "no token". */
const optionalSecret = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.string().min(16, 'expected a token of at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
);

/**
 * `http:` of the daemon config: the operations surface (metrics, health, dashboard, controls). Off when absent.
 * Loopback by default; another address needs a token, and every control needs the token wherever it listens.
 */
export const HttpConfigSchema = z
  .strictObject({
    listen: z
      .string()
      .default('127.0.0.1:9464')
      .refine((v) => parseListen(v) !== undefined, 'expected host:port, e.g. 127.0.0.1:9464 or [::1]:9464'),
    /** Bearer token for controls (and for every route when not on loopback). Never logged. */
    token: optionalSecret,
    /** Samples (one a second) the dashboard's charts keep. Default 900 (15 min). */
    historyPoints: zIntLike.pipe(z.number().int().min(10).max(86_400)).default(900),
  })
  .superRefine((v, ctx) => {
    const at = parseListen(v.listen);
    if (at && !isLoopback(at.host) && v.token === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message: `listening on ${at.host} (not loopback) needs a token: set http.token (e.g. \${BOT_HTTP_TOKEN})`,
      });
    }
  });

export const ALERT_KINDS = ['strategy-halted', 'loss-limit', 'account-limit', 'venue-unreachable', 'order-unknown', 'stale-data', 'daemon-stopping'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const seconds = zIntLike.pipe(z.number().int().min(1).max(86_400));

/** `alerts:` of the daemon config: one JSON POST per event to a webhook. Off when absent. */
export const AlertsConfigSchema = z.strictObject({
  /** The receiver. Treated as a secret (chat webhooks carry their key in the URL): never logged. */
  webhook: z.string().url('expected the webhook URL, e.g. https://hooks.example.com/T000/B000'),
  on: z
    .array(z.enum(ALERT_KINDS))
    .min(1)
    .default([...ALERT_KINDS]),
  /** `venue-unreachable` after this long without a successful venue call. Default 30. */
  venueUnreachableSec: seconds.default(30),
  /** `order-unknown` when an order's outcome is still unknown this long after it became so. Default 60. */
  unknownAfterSec: seconds.default(60),
  /** At most this many alerts a minute; the rest are counted and reported in the next one sent. Default 10. */
  maxPerMinute: zIntLike.pipe(z.number().int().min(1).max(600)).default(10),
  /** Retries of a failed POST (1 s, 2 s, 4 s ...). Default 3. */
  retries: zIntLike.pipe(z.number().int().min(0).max(10)).default(3),
  timeoutMs: zIntLike.pipe(z.number().int().min(100).max(60_000)).default(5000),
});

export type HttpConfig = z.output<typeof HttpConfigSchema>;
export type AlertsConfig = z.output<typeof AlertsConfigSchema>;
