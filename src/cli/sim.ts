import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../model/errors.js';
import type { SimHandle } from '../sim/start-sim.js';
import type { AccessEntry } from '../sim/http/server.js';
import { untilStopSignal } from '../app/stop-signal.js';

/**
 * `bot sim [--config FILE] [--port N] [--dialect contract|exchange] [--json]`: runs the simulated
 * exchange on 127.0.0.1 until SIGINT/SIGTERM, then closes it and exits 0. With --json the FIRST
 * stdout line is one JSON object with the base URL and the client accounts' credentials (the sim's
 * keys guard no real money; they are printed so a client can be pointed at it).
 */
interface SimCliOptions {
  config?: string;
  faults?: string;
  port: number;
  dialect: 'contract' | 'exchange';
  json?: boolean;
  verbose?: boolean;
  replay?: string;
  replaySpeed: number;
  loop?: boolean;
}

export function register(program: Command): void {
  program
    .command('sim')
    .description('Run the simulated exchange (v4 interface over HTTP on 127.0.0.1) until SIGINT/SIGTERM')
    .option('--config <file>', 'sim config YAML (markets, accounts, synthetic flow); default: the built-in one (= config/sim.yaml)')
    .option('--port <n>', 'port to listen on; 0 = a free port', parsePort, 0)
    .addOption(new Option('--dialect <dialect>', 'field spelling of the answers').choices(['contract', 'exchange']).default('contract'))
    .option(
      '--faults <file>',
      'fault injection YAML (per endpoint: error5xx, dropAfterAccept, latencyMs; `lies:` a venue that answers wrongly, docs/chaos.md); off by default',
    )
    .option('--json', 'print one JSON line {baseUrl, accounts} first, instead of a banner')
    .option('--verbose', 'log every request (method, path, status, venue code, time; never bodies) to stderr')
    .option('--replay <file>', "take the recording's market (its rules and books) from a file made by `bot record`/`bot import`, instead of synthetic flow")
    .option('--replay-speed <n>', 'replay speed: 1 = as recorded, 10 = ten times faster', parseSpeed, 1)
    .option('--loop', 'with --replay: start again from the first snapshot at the end')
    .addHelpText(
      'after',
      '\nExample:\n  npx bot sim --port 8080 --dialect exchange\n  npx bot sim --json --config config/sim.yaml --faults faults.yaml\n' +
        '  npx bot sim --replay backtest/sample-data/sim-btc-usdt.jsonl.gz --replay-speed 10\n' +
        '      # paper-trades a recording over HTTP',
    )
    .action(async (opts: SimCliOptions) => {
      const { startSim } = await import('../sim/start-sim.js');
      const { loadSimConfigFile } = await import('../sim/load-sim-config-file.js');
      const { DEFAULT_SIM_CONFIG } = await import('../sim/sim-config.js');
      const { FaultConfigSchema } = await import('../sim/http/fault-config-schema.js');
      const { loadYamlConfig } = await import('../settings/load-yaml.js');
      const { createLogger } = await import('../settings/logger.js');
      const { replayOptions } = await import('./sim-replay.js');
      const replay =
        opts.replay === undefined
          ? undefined
          : await replayOptions(opts.replay, { speed: opts.replaySpeed, loop: opts.loop === true, configFile: opts.config });
      const config = replay?.config ?? (opts.config === undefined ? DEFAULT_SIM_CONFIG : loadSimConfigFile(opts.config));
      const faults = opts.faults === undefined ? undefined : loadYamlConfig(opts.faults, FaultConfigSchema);
      let sim: SimHandle;
      try {
        const logger = opts.verbose === true ? createLogger({ destination: process.stderr, name: 'sim' }) : undefined;
        const onRequest = logger === undefined ? undefined : (e: AccessEntry) => logger.info(e, `${e.method} ${e.path} ${e.status}`);
        sim = await startSim({ config, faults, port: opts.port, dialect: opts.dialect, onRequest, ...(replay ? { marketFlow: replay.flow } : {}) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'EADDRINUSE' || code === 'EACCES') throw new ConfigError(`cannot listen on 127.0.0.1:${opts.port} (${String(code)})`, { cause: error });
        throw error;
      }
      // listening before it says how to stop it: a Ctrl-C right after the banner finds the handler (Node's default
      // action, before it, kills the process without closing the exchange)
      const stopped = untilStopSignal();
      process.stdout.write(opts.json === true ? `${JSON.stringify(handOver(sim))}\n` : banner(sim, opts.config));
      await stopped;
      await sim.close();
      if (opts.json !== true) process.stdout.write('sim: closed\n');
      process.exitCode = 0;
    });
}

function handOver(sim: SimHandle): object {
  return {
    baseUrl: sim.baseUrl,
    accounts: sim.accounts.map((a) => ({ name: a.name, apiKey: a.apiKey, apiSecret: a.apiSecret, partner: a.partner })),
  };
}

function banner(sim: SimHandle, configFile: string | undefined): string {
  const lines = [
    `Simulated exchange listening on ${sim.baseUrl}  (dialect: ${sim.dialect}; config: ${configFile ?? 'built-in default'})`,
    `Markets: ${[...sim.exchange.markets.keys()].join(', ')}`,
    'Accounts (test keys of the simulation; they guard no real money):',
    ...sim.accounts.map((a) => `  ${a.name.padEnd(10)} partner=${String(a.partner).padEnd(5)}  BOT_API_KEY=${a.apiKey}  BOT_API_SECRET=${a.apiSecret}`),
    `Try: npx bot ping --base-url ${sim.baseUrl}`,
    'Stop with Ctrl-C.',
  ];
  return `${lines.join('\n')}\n`;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

function parseSpeed(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}
