import { createHmac } from 'node:crypto';

/** What travels in the auth headers of one private request. */
export interface SignedPayload {
  /** `X-TXC-PAYLOAD`: standard Base64 (with padding) of the exact body bytes. */
  readonly payload: string;
  /** `X-TXC-SIGNATURE`: lowercase hex HMAC-SHA512 of the Base64 payload (not the raw JSON), keyed by the secret. */
  readonly signature: string;
}

/**
 * Signs a private request body exactly as exchange-facts §1 describes. Pure: the same body and secret
 * always give the same result. `bodyJson` must be the very string sent as the HTTP body.
 */
export function signPayload(bodyJson: string, secret: string): SignedPayload {
  const payload = Buffer.from(bodyJson, 'utf8').toString('base64');
  const signature = createHmac('sha512', Buffer.from(secret, 'utf8')).update(payload).digest('hex');
  return { payload, signature };
}
