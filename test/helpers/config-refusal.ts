import { expect } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';

/** The message of the ConfigError `fn` throws (fails the test when it throws anything else, or nothing). */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}
