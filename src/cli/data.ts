import type { Command } from 'commander';

/** `bot data info <files...> [--json]`: what a recording holds (logic in backtest/data/recording-info.ts). */
export function register(program: Command): void {
  const cmd = program.command('data').description('look into recordings (the recorder’s and the importers’ format)');
  cmd
    .command('info')
    .description('market, span, snapshot count and cadence, trades, gaps and crossed books of recordings')
    .argument('<files...>', 'recording files (.jsonl.gz)')
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nExample:\n  npx bot data info var/btc.jsonl.gz\n  npx bot data info var/btc.0001.jsonl.gz var/btc.0002.jsonl.gz --json')
    .action(async (files: string[], opts: { json?: boolean }) => {
      const { recordingInfo } = await import('../../backtest/data/recording-info.js');
      const { formatRecordingInfo } = await import('../../backtest/data/format-recording-info.js');
      const results = [];
      for (const file of files) {
        const info = await recordingInfo(file);
        results.push(info);
        if (opts.json !== true) process.stdout.write(`${formatRecordingInfo(info)}\n${files.length > 1 ? '\n' : ''}`);
      }
      if (opts.json === true) process.stdout.write(`${JSON.stringify(files.length === 1 ? results[0] : results, null, 2)}\n`);
    });
}
