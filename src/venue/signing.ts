import { createHash, createHmac, type Hash } from 'node:crypto';

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

/** SHA-512's block size in bytes: the HMAC key is padded (or first hashed) to it. */
const SHA512_BLOCK = 128;

/**
 * `signPayload` for one secret, set up once per client. HMAC-SHA512 as RFC 2104 defines it,
 * H((K ^ opad) || H((K ^ ipad) || payload)), with the two keyed SHA-512 states absorbed here and
 * copied per request: createHmac looks the digest up in OpenSSL and absorbs the key on every call,
 * and in the client benchmark that set-up was the larger part of signing. Gives exactly what
 * signPayload gives (property test in test/venue/signing.test.ts). Holds no copy of the secret.
 */
export class PayloadSigner {
  private readonly inner: Hash;
  private readonly outer: Hash;

  constructor(secret: string) {
    let key = Buffer.from(secret, 'utf8');
    if (key.length > SHA512_BLOCK) key = createHash('sha512').update(key).digest();
    const ipad = Buffer.alloc(SHA512_BLOCK, 0x36);
    const opad = Buffer.alloc(SHA512_BLOCK, 0x5c);
    for (let i = 0; i < key.length; i++) {
      ipad[i] = (ipad[i] as number) ^ (key[i] as number);
      opad[i] = (opad[i] as number) ^ (key[i] as number);
    }
    this.inner = createHash('sha512').update(ipad);
    this.outer = createHash('sha512').update(opad);
    for (const b of [key, ipad, opad]) b.fill(0);
  }

  sign(bodyJson: string): SignedPayload {
    const payload = Buffer.from(bodyJson, 'utf8').toString('base64');
    const innerDigest = this.inner.copy().update(payload).digest();
    return { payload, signature: this.outer.copy().update(innerDigest).digest('hex') };
  }
}
