import type { Command } from 'commander';

/** `bot journal repair <file> [--json]`: drops a journal's damaged lines on purpose, keeping a copy (logic in engine/journal-repair.ts). */
export function register(program: Command): void {
  const cmd = program.command('journal').description("the daemon's journal: repair one whose start was refused for damaged lines");
  cmd
    .command('repair')
    .description('copy the journal to <file>.bak-<time>, then rewrite it without its damaged lines (reported by line number and size, never content)')
    .argument('<file>', 'the journal (journal.path of the daemon config); stop the daemon first')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample:\n  npx bot journal repair var/journal-market-maker.jsonl')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { checkReadableFile } = await import('../settings/file-paths.js');
      const { repairJournal } = await import('../engine/journal-repair.js');
      const path = checkReadableFile(file, { key: 'journal' });
      const r = repairJournal(path, new Date());
      if (opts.json === true) {
        process.stdout.write(`${JSON.stringify({ file: path, ...r })}\n`);
        return;
      }
      if (r.backup === undefined) {
        process.stdout.write(`journal ${path}: no damaged line (${r.kept} records); nothing changed\n`);
        return;
      }
      const lines = r.dropped.map((d) => `line ${d.line} (${d.bytes} bytes)`).join(', ');
      process.stdout.write(
        `journal ${path}: dropped ${r.dropped.length} damaged line${r.dropped.length === 1 ? '' : 's'}: ${lines}; kept ${r.kept} records; the original is kept as ${r.backup}\n`,
      );
    });
}
