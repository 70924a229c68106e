import cliProgress from 'cli-progress';

/**
 * A progress bar for a long import, on stderr and only when stderr is a terminal: piped or in CI
 * the import stays silent there (its summary goes to stdout), so logs hold no bar redraws.
 * Progress is compressed bytes read of the input files' total size.
 */
export function importProgress(label: string): { onProgress?: (done: number, total: number) => void; stop(): void } {
  if (!process.stderr.isTTY) return { stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} MB | {eta}s left`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
  return {
    onProgress: (done, total) => {
      if (!started) {
        bar.start(mb(total), 0);
        started = true;
      }
      bar.update(mb(done));
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
