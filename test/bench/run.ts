/**
 * `npm run bench -- [name...]`: runs test/bench/<name>.bench.ts (all when no name is given).
 * Each bench module default-exports an async function that prints its figures, always as a ratio
 * against a baseline measured in the same run (the machines are shared and noisy).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : available;
for (const name of names) {
  if (!available.includes(name)) {
    process.stderr.write(`unknown bench "${name}"; available: ${available.join(', ')}\n`);
    process.exit(2);
  }
}
for (const name of names) {
  process.stdout.write(`\n== bench ${name}\n`);
  const mod = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as { default: () => Promise<void> };
  await mod.default();
}
