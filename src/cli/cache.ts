import type { Command } from 'commander';
import { defaultCacheDir } from '../../backtest/data/cache-settings.js';

/** `bot cache build <files...> [--cache DIR] [--force] [--json]`: the backtest's recording cache, built ahead (logic in backtest/data). */
export function register(program: Command): void {
  const cmd = program
    .command('cache')
    .description('the binary cache of recordings that makes replays fast (built by the first full replay of a file, or here)');
  cmd
    .command('build')
    .description(
      'build (or check) the cache of recordings; a file the cache cannot store exactly is skipped, with the reason; a missing file or one that is not a recording is an error (exit 2)',
    )
    .argument('<files...>', 'recording files (.jsonl.gz)')
    .option('--cache <dir>', `cache directory (default ${defaultCacheDir()})`)
    .option('--force', 'rebuild even when a valid cache exists')
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nExample:\n  npx bot cache build var/btc.0001.jsonl.gz var/btc.0002.jsonl.gz')
    .action(async (files: string[], opts: { cache?: string; force?: boolean; json?: boolean }) => {
      const { buildRecordingCache } = await import('../../backtest/data/recording-cache.js');
      const { checkReadableFile } = await import('../settings/file-paths.js');
      // every file named is there and a regular file before any is built (a missing one used to be "skipped", exit 0)
      for (const file of files) checkReadableFile(file, { key: 'cache build' });
      const results = [];
      for (const file of files) {
        const started = performance.now();
        const r = await buildRecordingCache(file, { ...(opts.cache !== undefined ? { dir: opts.cache } : {}), force: opts.force === true });
        results.push(r);
        if (opts.json === true) continue;
        const ms = (performance.now() - started).toFixed(0);
        process.stdout.write(
          r.status === 'skipped'
            ? `${file}: skipped (${r.reason})\n`
            : `${file}: ${r.status === 'built' ? `built in ${ms} ms` : 'already cached'}, ${r.events} lines, ${(r.bytes / 2 ** 20).toFixed(1)} MiB → ${r.path}\n`,
        );
      }
      if (opts.json === true) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    });
}
