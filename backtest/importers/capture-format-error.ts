import { BotError } from '../../src/model/errors.js';

/**
 * A capture line an importer cannot use without writing a wrong book: malformed, out of order, or
 * failing the exchange's own checksum. The message names `file:line`.
 */
export class CaptureFormatError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_CAPTURE_FORMAT', cause });
  }
}
