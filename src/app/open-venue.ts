import type { Logger } from 'pino';
import { ConfigError } from '../model/errors.js';
import type { DaemonConfig } from '../settings/daemon-config.js';
import { embeddedSimConfig } from '../sim/embedded-sim-config.js';
import { startSim, type SimHandle } from '../sim/start-sim.js';
import { RestClient } from '../venue/rest-client.js';
import type { VenueCallObserver } from '../venue/call-observer.js';
import type { RestClientOptions } from '../venue/rest-client-options.js';
import { openPaperVenue } from './paper-venue.js';

/** What a caller may add to a rest venue's client: where requests go, its rate limiter, its nonce clock. */
export type VenueClientOptions = Pick<RestClientOptions, 'transport' | 'rateLimiter' | 'clock'>;

export interface OpenedVenue {
  /** The in-process venue (the embedded sim, or the paper venue's), when the daemon runs one. */
  readonly sim?: SimHandle;
  readonly client: RestClient;
  /** What the log and the dashboard call the venue. */
  readonly label: string;
}

/**
 * The daemon's venue: a REST client on a configured venue, or an in-process sim on loopback and a client on it - the
 * embedded sim with its synthetic market, or the paper venue whose market is an upstream's public data.
 */
export async function openVenue(
  cfg: DaemonConfig,
  cwd: string,
  logger: Logger,
  configFile: string,
  env: NodeJS.ProcessEnv,
  observer?: VenueCallObserver,
  clientOptions: VenueClientOptions = {},
): Promise<OpenedVenue> {
  const watch = observer !== undefined ? { observer } : {};
  const venueLog = logger.child({ component: 'venue' });
  if (cfg.venue.kind === 'rest') {
    const v = cfg.venue;
    const client = new RestClient({
      ...(v.baseUrl !== undefined ? { baseUrl: v.baseUrl } : { region: v.region ?? 'main' }),
      dialect: v.dialect,
      apiKey: v.apiKey,
      apiSecret: v.apiSecret,
      nonceWindow: v.nonceWindow,
      ...(v.timeoutMs !== undefined ? { timeoutMs: v.timeoutMs } : {}),
      logger: venueLog,
      ...watch,
      ...clientOptions,
    });
    return { client, label: client.options.baseUrl };
  }
  if (cfg.venue.kind === 'paper') {
    const paper = await openPaperVenue(cfg.venue, { markets: cfg.strategies.map((s) => s.market), configFile, logger: logger.child({ component: 'paper' }) });
    const account = paper.sim.accounts[0]!;
    const client = new RestClient({
      baseUrl: paper.sim.baseUrl,
      apiKey: account.apiKey,
      apiSecret: account.apiSecret,
      nonceWindow: true,
      logger: venueLog,
      ...watch,
    });
    return { sim: paper.sim, client, label: `paper venue on ${paper.upstream} (${paper.sim.baseUrl}), ${cfg.venue.fills} fills` };
  }
  const v = cfg.venue;
  const simConfig = embeddedSimConfig(v.sim, { cwd, configFile, env });
  const sim = await startSim({ config: simConfig, port: 0, host: '127.0.0.1', dialect: v.dialect });
  const account = v.account ? sim.accounts.find((a) => a.name === v.account) : (sim.accounts.find((a) => !a.partner) ?? sim.accounts[0]);
  if (!account) {
    await sim.close();
    throw new ConfigError(`venue.account: the sim has no client account '${v.account}' (it has ${sim.accounts.map((a) => a.name).join(', ')})`);
  }
  logger.info({ baseUrl: sim.baseUrl, account: account.name }, 'embedded simulated exchange started');
  // nonceWindow: concurrent polls and orders may arrive out of nonce order (see daemon-config's rest venue).
  const client = new RestClient({
    baseUrl: sim.baseUrl,
    dialect: v.dialect,
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
    nonceWindow: true,
    logger: venueLog,
    ...watch,
  });
  return { sim, client, label: `embedded sim ${sim.baseUrl}` };
}
