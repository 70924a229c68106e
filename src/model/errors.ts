/**
 * Base of every real failure in the project. Expected rejections (rules, risk) are values, not errors.
 * `code` is stable and machine-readable; `cause` keeps the underlying error.
 */
export class BotError extends Error {
  readonly code: string;

  constructor(message: string, options: { code: string; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }
}

/** A configuration or usage problem: the CLI prints the message (no stack) and exits 2. */
export class ConfigError extends BotError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'ERR_CONFIG', cause: options.cause });
  }
}
