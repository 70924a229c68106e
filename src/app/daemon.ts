import { existsSync, renameSync } from 'node:fs';
import { asyncScheduler, interval, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import { DaemonConfigSchema, type DaemonConfig } from '../settings/daemon-config.js';
import { loadYamlConfig } from '../settings/load-yaml.js';
import { createLogger } from '../settings/logger.js';
import { checkDaemonFiles } from '../settings/daemon-files.js';
import { checkLimitTickers } from '../settings/limit-tickers.js';
import type { SimHandle } from '../sim/start-sim.js';
import { loadStrategy, parseParams } from '../strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { planPolling } from '../streams/polling-plan.js';
import type { RestClient } from '../venue/rest-client.js';
import { openVenue, type VenueClientOptions } from './open-venue.js';
import { refuseBadCredentials } from './venue-credentials.js';
import { onceSignal } from './stop-signal.js';
import { Emergency, EMERGENCY_DEADLINE_MS, EMERGENCY_EXIT_CODE, EmergencyStopError } from './emergency.js';
import { OpsSurface } from './ops-surface.js';
import { SessionRecorder } from './session-recorder.js';
import { DeadManTimer } from '../engine/dead-man.js';
import { FileJournal } from '../engine/journal.js';
import { GuardedJournal } from '../engine/guarded-journal.js';
import { asyncLocalBoundary } from '../engine/strategy-boundary.js';
import { createRuntime, type Runtime } from '../engine/runtime.js';
import { formatSummary, type RunSummary } from '../engine/run-summary.js';
import { formatStatusLine } from '../engine/status-view.js';

export interface DaemonOptions {
  readonly configPath: string;
  /** The config at configPath, when the caller has loaded it already (bot run, to report a mistake in it early). */
  readonly config?: DaemonConfig;
  readonly dryRun?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the final summary is printed. Default stdout. */
  readonly out?: NodeJS.WritableStream;
  /** Resolves when the daemon should stop. Default: the first SIGINT or SIGTERM. */
  readonly until?: Promise<unknown>;
  /** Default asyncScheduler (real time). */
  readonly scheduler?: SchedulerLike;
  /** Relative paths in the config (journal, log file, sim file, strategy modules) resolve against this. Default cwd. */
  readonly cwd?: string;
  /** Told the ops surface's URL once it listens (`http:` on; port 0 picks a free one). */
  readonly onListening?: (url: string) => void;
  /**
   * More options for the REST client of a `rest` venue (tests on virtual time: an in-process transport to a simulated
   * exchange, a rate limiter and nonces on the scheduler's clock).
   */
  readonly clientOptions?: VenueClientOptions;
}

/**
 * The composition root of `bot run` (src/app wires; src/engine never reaches src/sim): loads and validates the config, starts the venue (the embedded sim over loopback HTTP, or a REST
 * venue), loads the strategies, runs the runtime with a status line every `status.everyMs`, and on stop
 * (SIGINT/SIGTERM) stops strategies, drains/cancels, flushes the journal and prints the summary.
 */
export async function runDaemon(o: DaemonOptions): Promise<RunSummary> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const cfg = o.config ?? loadYamlConfig(o.configPath, DaemonConfigSchema, env);
  // before anything is opened, created or renamed: no device, FIFO, folder or /proc path gets near the journal's rename
  const files = checkDaemonFiles(cfg, o.configPath, cwd);
  // the ops token and the alert webhook (a chat webhook's URL is its key) are redacted like the API secret
  const secrets = [
    ...(cfg.venue.kind === 'rest' ? [cfg.venue.apiSecret] : []),
    ...(cfg.http?.token !== undefined ? [cfg.http.token] : []),
    ...(cfg.alerts ? [cfg.alerts.webhook] : []),
  ];
  const logger = createLogger({
    level: cfg.log.level,
    pretty: cfg.log.pretty,
    destination: files.logFile,
    name: 'bot',
    secrets,
  });
  const scheduler = o.scheduler ?? asyncScheduler;
  const stopSignal = o.until ?? onceSignal(logger);
  let requestStop: (reason: string) => void = () => {};
  const stopControl = new Promise<string>((resolve) => (requestStop = resolve));
  const ops = OpsSurface.fromConfig(cfg, o.configPath, logger, secrets);

  let sim: SimHandle | undefined;
  let client: RestClient | undefined;
  let venueLabel = '';
  let runtime: Runtime | undefined;
  let recorder: SessionRecorder | undefined;
  let deadMan: DeadManTimer | undefined;
  const boundary = asyncLocalBoundary();
  const emergency = new Emergency(logger, boundary);
  const uninstall = emergency.install();
  try {
    const opsUrl = await ops?.listen();
    if (opsUrl !== undefined) o.onListening?.(opsUrl);
    ({ sim, client, label: venueLabel } = await openVenue(cfg, cwd, logger, o.configPath, env, ops?.callObserver, o.clientOptions));
    const markets = new Map<string, Market>((await client.markets()).map((m) => [m.name, m]));
    if (!sim) await refuseBadCredentials(client, o.configPath);
    const strategies = [];
    for (const [i, s] of cfg.strategies.entries()) {
      if (!markets.has(s.market)) {
        throw new ConfigError(`${o.configPath}: strategies[${i}].market: the venue has no market '${s.market}' (it has ${[...markets.keys()].join(', ')})`);
      }
      const definition = await loadStrategy(
        builtinStrategies,
        s.use,
        { configFile: o.configPath, cwd, warn: (m) => logger.warn(m) },
        `${o.configPath}: strategies[${i}].use`,
      );
      // here, where the file is known: a problem names its line and column (the runtime validates them again)
      parseParams(definition, s.params, { file: o.configPath, path: ['strategies', i, 'params'] });
      strategies.push({
        id: s.id,
        definition,
        params: s.params,
        market: s.market,
        risk: s.risk,
        where: `${o.configPath}: strategies[${i}].params`,
      });
    }
    checkLimitTickers(cfg.strategies, markets, o.configPath);
    const plan = planPolling({
      markets: cfg.strategies.map((s) => s.market),
      wishes: {
        bookMs: cfg.polling.bookMs,
        balancesMs: cfg.polling.balancesMs,
        openOrdersMs: cfg.polling.openOrdersMs,
        dealsMs: cfg.polling.dealsMs,
      },
      reserve: cfg.polling.reserve,
    });
    const journalPath = files.journal;
    // The embedded sim (and the paper venue's) starts empty every time (order and deal ids restart at 1), so nothing in
    // an earlier journal refers to it: keep that journal aside instead of replaying it against a different exchange.
    if (sim && existsSync(journalPath)) {
      const aside = files.journalAside;
      renameSync(journalPath, aside);
      logger.info({ previous: aside }, 'embedded sim: previous journal kept aside, starting a fresh one');
    }
    const fileJournal = new FileJournal(journalPath, { fsync: cfg.journal.fsync, ...(ops ? { onFsync: ops.onFsync } : {}) });
    if (fileJournal.torn)
      logger.warn(
        { journal: journalPath, line: fileJournal.torn.line, bytes: fileJournal.torn.bytes },
        'journal: a torn last line (a crash mid-write) was dropped',
      );
    // a failed write is the emergency stop, wherever in the engine it happened
    const journal = new GuardedJournal(ops ? ops.journal(fileJournal) : fileJournal, (error) =>
      emergency.trigger(`journal write failed: ${error.message}`, error),
    );
    if (cfg.record !== undefined && files.recordPath !== undefined) {
      const venue = client;
      recorder = await SessionRecorder.open({
        path: files.recordPath,
        markets: [...new Set(cfg.strategies.map((s) => s.market))].map((m) => markets.get(m)!),
        rotate: cfg.record.rotate,
        publicTrades: (m) => venue.publicTrades(m),
        // within the public budget whatever the plan: the books' own limit (600 / 10 s) is under a third of the public
        // one they share with trades (2000 / 10 s), so trades at the books' period keep the public bucket within it
        tradesMs: plan.intervals.bookMs,
        scheduler,
        clock: { now: () => scheduler.now() },
        logger: logger.child({ component: 'record' }),
        source: venueLabel,
        // the embedded and the paper venue start afresh (their trade ids too); a REST venue's go on
        resume: sim === undefined,
      });
    }
    runtime = createRuntime({
      api: client,
      scheduler,
      clock: { now: () => scheduler.now() },
      logger,
      markets,
      strategies,
      polling: {
        ...plan.intervals,
        bookLimit: cfg.polling.bookLimit,
        bookLevel: cfg.polling.bookLevel,
        staleAfterMs: cfg.polling.staleAfterMs,
        maxJump: cfg.polling.maxJump,
        confirmPolls: cfg.polling.confirmPolls,
      },
      journal,
      dryRun: o.dryRun === true,
      cancelOnStop: cfg.shutdown.cancelOpenOrders,
      concurrency: cfg.executor.concurrency,
      bulkPlaces: cfg.executor.bulk,
      boundary,
      ...(cfg.risk?.account ? { account: { limits: cfg.risk.account, where: `${o.configPath}: risk.account` } } : {}),
      onPolled: recorder?.onBook,
    });
    logger.info({ polling: plan.intervals, journal: fileJournal.path, venue: venueLabel, ...(recorder ? { record: files.recordPath } : {}) }, 'starting');
    // dead-man timer: armed before the first order can rest, cleared after the stop's cancels (nothing is sent in a dry run)
    if (cfg.deadMan !== undefined && o.dryRun !== true) {
      deadMan = new DeadManTimer({
        api: client,
        markets: cfg.strategies.map((s) => s.market),
        timeoutSec: cfg.deadMan.timeoutSec,
        scheduler,
        logger: logger.child({ component: 'dead-man' }),
        journal,
      });
      await deadMan.start();
    }
    ops?.attach({
      runtime,
      client,
      journalWritable: () => fileJournal.writable(),
      ...(deadMan ? { deadMan } : {}),
      venueLabel,
      requestStop,
    });
    if (opsUrl !== undefined) logger.info({ url: `${opsUrl}/` }, `dashboard: ${opsUrl}/  (metrics ${opsUrl}/metrics, readiness ${opsUrl}/ready)`);
    await runtime.start();
    recorder?.start();
    const rt = runtime;
    const statusSub = interval(cfg.status.everyMs, scheduler).subscribe(() => logger.info(formatStatusLine(rt.status())));
    const reason = await Promise.race([
      stopSignal.then((s) => (typeof s === 'string' ? `signal ${s}` : 'stop requested')),
      stopControl,
      emergency.triggered.then((cause) => `emergency: ${cause}`),
    ]);
    statusSub.unsubscribe();
    const forced = emergency.reason !== undefined;
    logger.info(
      { reason },
      forced
        ? 'emergency stop: strategies stopped, every open order cancelled'
        : 'stopping: strategies stopped, queue drained, open orders cancelled as configured',
    );
    const alerted = ops?.stopping(reason);
    // an emergency stop that cannot finish (a venue that never answers) must still end the process
    const watchdog = forced ? setTimeout(() => abandon(emergency.reason!), EMERGENCY_DEADLINE_MS).unref() : undefined;
    // the dead-man timer stays armed where the stop could not confirm our orders gone (the venue then cancels them)
    const summary = await runtime.stop({
      ...(forced ? { cancelOpenOrders: true } : {}),
      afterShutdown: async (outcome, cancelled) => deadMan?.clear(new Set(cancelled ? outcome.unsettledMarkets : [])),
    });
    clearTimeout(watchdog);
    // the last status line is the summary's state (fills of the stop's last polls included), so the two agree
    logger.info(formatStatusLine(rt.status()));
    (o.out ?? process.stdout).write(`${formatSummary(summary)}\n`);
    await alerted;
    if (emergency.reason !== undefined) throw new EmergencyStopError(emergency.reason, summary);
    return summary;
  } catch (error) {
    // a failure that ended the start or the stop early: still the emergency's cause when there was one
    if (emergency.reason !== undefined && !(error instanceof EmergencyStopError)) throw new EmergencyStopError(emergency.reason, undefined);
    throw error;
  } finally {
    uninstall();
    await recorder?.close();
    await ops?.close();
    await deadMan?.stop(); // a failed start or stop leaves the venue's timers to run out: the safe side
    client?.close();
    await sim?.close();
  }
}

/** The emergency stop ran past its deadline: one line and out (the dead-man timer, when armed, cancels what is left). */
function abandon(cause: string): never {
  process.stderr.write(
    `bot: emergency stop: ${cause}; the stop did not finish within ${EMERGENCY_DEADLINE_MS / 1000} s: exiting, orders may be left (the dead-man timer, when configured, cancels them) [ERR_EMERGENCY_STOP]\n`,
  );
  process.exit(EMERGENCY_EXIT_CODE);
}
