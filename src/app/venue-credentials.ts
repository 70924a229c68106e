import { ConfigError } from '../model/errors.js';
import { AuthError } from '../venue/errors.js';

/** The variables the shipped configs read the key from: what a person has to check when the venue refuses it. */
export const CREDENTIAL_HINT = 'check the venue.apiKey / venue.apiSecret values (BOT_API_KEY, BOT_API_SECRET)';

/**
 * A refused key (401/403) as the config error it is: one line naming the config file, the keys and the
 * environment variables, exit 2. Any other error: undefined (the caller keeps it).
 */
export function credentialsError(error: unknown, configFile: string): ConfigError | undefined {
  if (!(error instanceof AuthError)) return undefined;
  const status = error.status === undefined ? '' : `HTTP ${error.status}, `;
  return new ConfigError(`${configFile}: venue.apiKey / venue.apiSecret: the venue refused the key (${status}${error.message}): ${CREDENTIAL_HINT}`, {
    cause: error,
  });
}

/**
 * One signed call (the trade balance) before a REST venue's daemon starts anything: a wrong key ends the start at
 * once with `credentialsError` instead of after the start-up look-ups' retries. Any other failure here is left to
 * those retries (a venue that answers garbage once must not stop the start).
 */
export async function refuseBadCredentials(api: { tradeBalance(): Promise<unknown> }, configFile: string): Promise<void> {
  try {
    await api.tradeBalance();
  } catch (error) {
    const refused = credentialsError(error, configFile);
    if (refused !== undefined) throw refused;
  }
}
