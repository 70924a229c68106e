import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

describe('bot kill-switch against the sim', () => {
  const sim = useSim({ flow: false });

  async function env(): Promise<{ url: string; creds: Record<string, string>; accountId: string; s: Awaited<ReturnType<typeof sim>> }> {
    const s = await sim();
    const a = simAccount(s, false);
    return {
      s,
      url: s.baseUrl,
      accountId: s.exchange.accountByKey(a.apiKey)!.id,
      creds: { BOT_API_KEY: a.apiKey, BOT_API_SECRET: a.apiSecret, BOT_BASE_URL: '' },
    };
  }

  it('--help documents the timer options and the renamed request timeout', async () => {
    const r = await runBot(['kill-switch', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--timeout <seconds>', '--clear', '--status', '--request-timeout <ms>', '--base-url', 'BOT_API_KEY']) expect(r.stdout).toContain(flag);
  });

  it('sets, shows and clears the timer, in both dialects, as a table and as JSON', async () => {
    const { s, url, creds, accountId } = await env();
    for (const dialect of ['contract', 'exchange']) {
      const set = await runBot(['kill-switch', 'BTC_USDT', '--timeout', '60', '--dialect', dialect, '--base-url', url, '--json'], creds);
      expect(set.stderr).toBe('');
      expect(set.code).toBe(0);
      const timer = JSON.parse(set.stdout) as { market: string; startTime: number; cancellationTime: number; types: string[] };
      expect(timer).toMatchObject({ market: 'BTC_USDT', types: ['spot', 'margin', 'futures'] });
      expect(timer.cancellationTime - timer.startTime).toBe(60);
      expect(s.exchange.killSwitchStatus(accountId)).toHaveLength(1);

      const status = await runBot(['kill-switch', '--status', '--dialect', dialect, '--base-url', url], creds);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^MARKET\s+SET AT\s+CANCELS AT\s+TIMEOUT\s+TYPES/);
      expect(status.stdout).toMatch(/BTC_USDT .* 60s\s+spot,margin,futures/);

      const cleared = await runBot(['kill-switch', 'BTC_USDT', '--clear', '--dialect', dialect, '--base-url', url], creds);
      expect(cleared).toMatchObject({ code: 0, stdout: 'kill-switch timer of BTC_USDT cleared\n' });
      expect(s.exchange.killSwitchStatus(accountId)).toEqual([]);
      expect((await runBot(['kill-switch', 'BTC_USDT', '--status', '--base-url', url], creds)).stdout).toBe('(none)\n');
    }
  });

  it('usage errors exit 2 and send nothing; a venue refusal exits 1', async () => {
    const { s, url, creds } = await env();
    for (const args of [
      ['BTC_USDT'],
      ['BTC_USDT', '--timeout', '60', '--clear'],
      ['BTC_USDT', '--timeout', '4'],
      ['BTC_USDT', '--timeout', '601'],
      ['BTC_USDT', '--timeout', 'soon'],
      ['--clear'],
    ]) {
      const r = await runBot(['kill-switch', ...args, '--base-url', url], creds);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(s.stats.arrivalTimes('killSwitch')).toEqual([]);
    const unknown = await runBot(['kill-switch', 'NOPE_USDT', '--timeout', '60', '--base-url', url], creds);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/venue code 31/);
  });
});
