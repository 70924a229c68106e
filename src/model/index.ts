export * from './decimal.js';
export * from './errors.js';
export * from './market.js';
export * from './order.js';
export * from './book.js';
export * from './balance.js';
export * from './investment.js';
export * from './executed-order.js';
