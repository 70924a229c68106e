import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The V8 flags the daemon runs with (bin/bot.js explains why) must be the same on every way of starting it. */
describe('node flags', () => {
  it('the bot shebang, npm start, npm run bot and npm run bench all pass the same nursery size, fixed (min = max)', () => {
    const flag = /--max-semi-space-size=(\d+) --min-semi-space-size=\1(\s|$)/;
    const shebang = readFileSync(new URL('../../bin/bot.js', import.meta.url), 'utf8').split('\n')[0]!;
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(shebang).toMatch(/^#!\/usr\/bin\/env -S node /);
    const sizes = [shebang, scripts['start'], scripts['bot'], scripts['bench']].map((s) => flag.exec(s ?? '')?.[1]);
    expect(sizes[0]).toBeDefined();
    expect(new Set(sizes)).toEqual(new Set([sizes[0]]));
  });
});
