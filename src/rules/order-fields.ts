/** An order request as received (sim) or about to be sent (engine): every field unchecked. */
export interface RawOrderFields {
  market?: unknown;
  side?: unknown;
  amount?: unknown;
  price?: unknown;
  activationPrice?: unknown;
  clientOrderId?: unknown;
  postOnly?: unknown;
  ioc?: unknown;
  rpi?: unknown;
  stp?: unknown;
}
