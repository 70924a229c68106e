import type { z } from 'zod';
import type { StrategyDefinition } from './define-strategy.js';
import { parseParams } from './load-strategy.js';

/**
 * A strategy's params for a test: its schema's defaults, with `overrides` on top, validated as a config's params
 * are. A test that takes its params from here follows the schema (a param renamed or added with a default needs no
 * edit of the test), and a bad override is a ConfigError naming the key and the near key (`sprad` → `spread`), not
 * a raw ZodError.
 */
export function testParams<S extends z.ZodType>(definition: StrategyDefinition<S>, overrides: Readonly<Record<string, unknown>> = {}): z.output<S> {
  return parseParams(definition, overrides, `${definition.name} test params`);
}
