import type { Command } from 'commander';

/**
 * `bot parity --journal FILE --data FILE... [--config FILE] [--out DIR] [--fit] [--fill-model FILE] [--json]`
 * (logic in backtest/parity/).
 */
export function register(program: Command): void {
  program
    .command('parity')
    .description(
      'replay a recorded session (journal + the books it recorded) through the backtester with its config, both lanes, and set it beside what the venue did; writes parity.json and parity.html',
    )
    .requiredOption('--journal <file>', 'the session’s journal (journal.path of its daemon config); the last run in it is the session')
    .requiredOption('--data <files...>', 'the books the session polled (its record: file, or a rotated series in order)')
    .option('--config <file>', 'the session’s daemon config (default: the one beside the journal that names it)')
    .option('--out <dir>', 'report directory (default var/parity)')
    .option('--fit', 'fit the fill model’s parameters to the live fills first; writes fill-model.yaml (a fillModel: block for `bot backtest` and `bot sweep`)')
    .option('--fill-model <file>', 'compare with this fill model (a YAML file with a fillModel: block, e.g. one --fit wrote)')
    .option('--json', 'print the summary as one JSON object instead of the summary line')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot parity --journal var/journal.jsonl --data var/session.jsonl.gz --config config/paper.yaml\n  npx bot parity --journal var/journal.jsonl --data var/session.jsonl.gz --fit --out var/parity1\n\nThe loop is described in docs/parity.md.',
    )
    .action(async (opts: { journal: string; data: string[]; config?: string; out?: string; fit?: boolean; fillModel?: string; json?: boolean }) => {
      const { runParity } = await import('../../backtest/parity/run-parity.js');
      const { loadFillModelFile } = await import('../../backtest/parity/fill-model-file.js');
      const run = await runParity({
        journal: opts.journal,
        data: opts.data,
        config: opts.config,
        out: opts.out,
        fit: opts.fit === true,
        fillModel: opts.fillModel === undefined ? undefined : loadFillModelFile(opts.fillModel),
        onFitProgress: opts.json === true || !process.stderr.isTTY ? undefined : (done, total) => process.stderr.write(`\rfit: ${done}/${total} replays`),
      });
      const r = run.report;
      if (opts.json === true) {
        const files = { json: run.jsonPath, html: run.htmlPath, ...(run.fitPath === undefined ? {} : { fillModel: run.fitPath }) };
        const fit = r.fit === null ? null : { best: r.fit.best, loss: r.fit.bestLoss, defaultLoss: r.fit.defaultLoss };
        process.stdout.write(`${JSON.stringify({ ...r.summary, fillModel: r.fillModel, fees: r.fees, fit, files })}\n`);
        return;
      }
      if (r.fit !== null && process.stderr.isTTY) process.stderr.write('\n');
      const lines = [r.summary.line, `  ${r.fillModelLine}`];
      if (r.fit !== null) {
        lines.push(
          `  fit: queueAhead ${r.fit.best.queueAhead}, decreaseTrades ${r.fit.best.decreaseTrades}: loss ${r.fit.bestLoss.toFixed(4)} (defaults ${r.fit.defaultLoss.toFixed(4)})`,
          `  fillModel block: ${run.fitPath}`,
        );
      }
      lines.push(`  report: ${run.htmlPath}`, `          ${run.jsonPath}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
