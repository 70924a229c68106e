import type { Balances } from '../model/balance.js';
import type { Deal, Order } from '../model/order.js';

/**
 * The venue's own records of one account at the end of a run (the sim's, read in-process): what both audits
 * (journal-audit.ts, trust-audit.ts) hold the journal against, in a file of its own so neither imports the other.
 */
export interface VenueRecords {
  readonly open: readonly Order[];
  readonly finished: readonly Order[];
  readonly deals: readonly Deal[];
  readonly balances: Balances;
  /** Trade balances the account started with. */
  readonly initial: Balances;
}
