/**
 * The v4 wire: exact JSON shapes of requests and responses (decimals as strings), the paths, the
 * two field-name dialects and the rate-limit table. This file is the ONLY contract shared by the
 * REST client (venue/) and the simulated exchange (sim/). No logic here beyond constants.
 * Sources: ../shared/spec/api-v4.md (the contract) and exchange-facts.md (gaps, extra endpoints).
 */

export * from './wire/paths.js';
export * from './wire/rate-limits.js';
export * from './wire/common.js';
export * from './wire/orders.js';
export * from './wire/account.js';
export * from './wire/public.js';
export * from './wire/errors.js';
export * from './wire/order-batch.js';
export * from './wire/kill-switch.js';
