import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One secret found where it must not be: the file and byte offset, and which secret by its label (never its value). */
export interface SecretHit {
  readonly file: string;
  readonly offset: number;
  readonly secret: string;
}

/**
 * Scans every byte of every file under `dir` (the run's stdout/stderr captures, logs, journals, configs,
 * reports) for each known secret, raw and as JSON would escape it. Secrets are given with a label so a hit
 * can be reported without printing the secret itself.
 */
export function scanForSecrets(
  dir: string,
  secrets: ReadonlyArray<{ label: string; value: string }>,
  extra: ReadonlyArray<{ name: string; text: string }> = [],
): { files: number; bytes: number; hits: SecretHit[] } {
  const needles = secrets.filter((s) => s.value.length >= 4).flatMap((s) => variants(s.value).map((v) => ({ label: s.label, bytes: Buffer.from(v) })));
  const hits: SecretHit[] = [];
  let files = 0;
  let bytes = 0;
  const scan = (name: string, data: Buffer): void => {
    files += 1;
    bytes += data.length;
    for (const n of needles) {
      for (let at = data.indexOf(n.bytes); at >= 0; at = data.indexOf(n.bytes, at + 1)) hits.push({ file: name, offset: at, secret: n.label });
    }
  };
  for (const file of walk(dir)) scan(relative(dir, file), readFileSync(file));
  for (const e of extra) scan(e.name, Buffer.from(e.text));
  return { files, bytes, hits };
}

/** The value, and its JSON-escaped and URL-encoded forms when they differ. */
function variants(value: string): string[] {
  const out = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  return [...out];
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
