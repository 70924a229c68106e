import type { Order } from '../model/order.js';
import { ownsClientOrderId, prefixFor } from '../engine/client-order-ids.js';

/**
 * Watches the venue's open orders of an account while the run goes on (in-process, from the sim's own
 * records, every few hundred ms) for the duplicates no end-of-run audit can see: two live orders of a grid at
 * one price level at the same moment. Each pair is counted once however long it lasts.
 */
export class LiveWatch {
  readonly gridDuplicates = new Set<string>();
  samples = 0;
  readonly #grids: ReadonlyArray<(id: string) => boolean>;

  constructor(gridStrategyIds: readonly string[]) {
    this.#grids = gridStrategyIds.map((id) => ownsClientOrderId(prefixFor(id)));
  }

  /** One look at the venue's open orders of the account. */
  sample(open: readonly Order[]): void {
    this.samples += 1;
    for (const owns of this.#grids) {
      const byLevel = new Map<string, string[]>();
      for (const o of open) {
        if (!owns(o.clientOrderId)) continue;
        const level = `${o.market}@${o.price.toFixed()}`;
        const ids = byLevel.get(level) ?? [];
        ids.push(o.clientOrderId);
        byLevel.set(level, ids);
      }
      for (const [level, ids] of byLevel) if (ids.length > 1) this.gridDuplicates.add(`${level}: ${[...ids].sort().join(' + ')}`);
    }
  }
}
