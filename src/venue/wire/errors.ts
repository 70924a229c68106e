/** Private endpoint error body. `errors` maps a parameter to messages; may be `{}`. */
export interface PrivateErrorBody {
  code: number;
  message: string;
  errors?: Record<string, string[]>;
}

/** Public endpoint error body, contract form. The live venue answers 422 with a flat `{field: [msg]}`. */
export interface PublicErrorBody {
  success: false;
  message: string;
  params: unknown[];
}

/** Order-endpoint validation codes (api-v4.md "Errors"). */
export const ORDER_ERROR_CODES = {
  default: 30,
  market: 31,
  amount: 32,
  price: 33,
  fee: 35,
  clientOrderId: 36,
  flagConflict: 37,
} as const;

/** Plain-text body of a 429. */
export const TOO_MANY_REQUESTS_TEXT = 'Too Many Requests';
