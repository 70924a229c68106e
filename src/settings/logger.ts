import { pino, type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

const { prettyFactory } = pinoPretty;
import { ConfigError } from '../model/errors.js';
import { createScrubber, redactCensor, redactPaths } from './redaction.js';

export { redactPaths } from './redaction.js';
export type { Logger } from 'pino';

export interface LoggerOptions {
  /** trace, debug, info (default), warn, error, fatal or silent. */
  readonly level?: string | undefined;
  /** Human-readable lines (pino-pretty) instead of JSON; default: when the destination is a terminal. */
  readonly pretty?: boolean | undefined;
  /** A stream, or a file path (appended, created with its folder); default stdout. Commands whose stdout is
   *  data (JSON, tables) should pass `process.stderr`. */
  readonly destination?: NodeJS.WritableStream | string | undefined;
  /** Added to every line as `name` (e.g. the command or strategy). */
  readonly name?: string | undefined;
  /** Known secret values (API secret, passphrases) scrubbed from every output line, wherever they appear. */
  readonly secrets?: readonly string[] | undefined;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The logger every command uses: pino, JSON by default and pretty on a terminal, with secrets redacted by
 * key (`redactPaths`: apiSecret, secret, passphrase, created codes, payload, signature, X-TXC-* headers)
 * and, when given, by value (`secrets`). Writes synchronously so nothing is lost when the CLI exits.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  if (!LEVELS.includes(level)) throw new ConfigError(`unknown log level "${level}" (expected one of ${LEVELS.join(', ')})`);
  const dest = options.destination ?? process.stdout;
  const tty = typeof dest !== 'string' && (dest as { isTTY?: boolean }).isTTY === true;
  const pretty = options.pretty ?? tty;

  // stdout/stderr through pino's own synchronous writer: nothing is lost when a command exits.
  let sink: DestinationStream =
    typeof dest === 'string'
      ? pino.destination({ dest, sync: true, mkdir: true, append: true })
      : dest === process.stdout
        ? pino.destination({ dest: 1, sync: true })
        : dest === process.stderr
          ? pino.destination({ dest: 2, sync: true })
          : dest;
  // Formatting and scrubbing happen line by line, synchronously, before the bytes reach the sink, so
  // the scrubber sees the final text whichever format is chosen.
  const format = pretty
    ? prettyFactory({
        colorize: tty,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        // One line per event: messages already say what happened; the fields follow as compact JSON.
        singleLine: true,
      })
    : undefined;
  const scrub = createScrubber(options.secrets ?? []);
  if (format !== undefined || scrub !== undefined) {
    const inner = sink;
    sink = {
      write: (line: string) => {
        const text = format === undefined ? line : format(line);
        inner.write(scrub === undefined ? text : scrub(text));
      },
    };
  }
  return pino(
    {
      level,
      ...(options.name === undefined ? {} : { name: options.name }),
      redact: { paths: [...redactPaths], censor: redactCensor },
      base: {}, // no pid and hostname on every line (the name stays)
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    sink,
  );
}
