export * from './steps.js';
export * from './violation.js';
export * from './messages.js';
export * from './validate-order.js';
export { rememberValid } from './validated-orders.js';
export * from './quantize.js';
export * from './validate-code.js';
