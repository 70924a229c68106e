import { fmt, type Decimal } from '../model/decimal.js';

/**
 * Every message text the rules produce, in one place. Texts marked VENUE are the exchange's own wording
 * (exchange-facts.md §4); the others are ours, written in the same style (Laravel-like "The x field ..."
 * sentences, which is what the venue's framework answers for the checks it words that way).
 */
export const MSG = {
  // VENUE
  marketNotAvailable: 'Market is not available.',
  amountNotNumber: 'The amount must be a number.',
  priceNotNumber: 'The price must be a number.',
  sideInvalid: 'The side must be one of buy, sell.',
  amountBelowMin: (min: Decimal) => `Given amount is less than min amount ${fmt(min)}`,
  amountStep: (step: Decimal) => `Min amount step = ${fmt(step)}`,
  totalBelowMin: (min: Decimal) => `Total(amount * price) is less than ${fmt(min)}`,
  priceBelowMin: (min: Decimal) => `The Price should be greater than or equal to ${fmt(min)}`,
  priceStep: (step: Decimal) => `Min price step = ${fmt(step)}`,
  // OURS
  required: (field: string) => `The ${field.replace(/_/g, ' ')} field is required.`,
  amountNotPositive: 'The amount must be greater than 0.',
  priceNotPositive: 'The price must be greater than 0.',
  totalAboveMax: (max: Decimal) => `Total(amount * price) is greater than ${fmt(max)}`,
  activationNotNumber: 'The activation price must be a number.',
  activationNotPositive: 'The activation price must be greater than 0.',
  marketNotString: 'The market must be a string.',
  flagNotBoolean: (field: string) => `The ${field} field must be true or false.`,
  stpInvalid: 'The stp must be one of no, cancel_both, cancel_new, cancel_old, cb, cn, co.',
  clientOrderIdNotString: 'The client order id must be a string.',
  clientOrderIdChars: 'The client order id may only contain latin letters, numbers and dashes.',
  clientOrderIdUsed: 'This client order id is already used by the current account.',
  flagConflict: 'The ioc flag cannot be combined with postOnly or rpi.',
  codeAmountDecimals: 'The amount may have at most 8 decimal places.',
} as const;
