/** Every private body carries these (exchange-facts §1). */
/** A private request's own fields: its wire body without the signed-request fields the client adds. */
export type RequestFields<B extends AuthFields> = Omit<B, keyof AuthFields>;

export interface AuthFields {
  request: string;
  /** Unix milliseconds as a string, strictly increasing per key (or within ±5 s with nonceWindow). */
  nonce: string;
  nonceWindow?: boolean;
}

/** Decimal on the wire: a numeric string; a plain number is also accepted for amount and price. */
export type WireDecimal = string;
