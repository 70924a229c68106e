import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { StrategyContext } from './context.js';
import type { Intent } from './intents.js';

/** A strategy module: a name, a params schema (types, validation, defaults) and a factory of intents. */
export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description?: string;
  readonly params: S;
  /** Called once per instance; the returned Observable is subscribed for the instance's lifetime. */
  create(ctx: StrategyContext<z.output<S>>): Observable<Intent>;
}

/** Identity function that gives a strategy module its types. A module's default export is its definition. */
export function defineStrategy<S extends z.ZodType>(definition: StrategyDefinition<S>): StrategyDefinition<S> {
  if (!definition.name || !/^[a-z][a-z0-9-]*$/.test(definition.name)) {
    throw new TypeError(`defineStrategy: name must be kebab-case letters/digits, got ${JSON.stringify(definition.name)}`);
  }
  return definition;
}
