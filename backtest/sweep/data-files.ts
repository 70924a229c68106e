/**
 * Content-addressed data. The coordinator hashes each recording (sha256) and every job carries the hashes; a
 * worker finds each file (in its `--data DIR` by file name, else at the same path), checks the hash and
 * refuses to run on other bytes. Hashes are remembered per (path, size, mtime) for the life of the process.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BotError } from '../../src/model/errors.js';

export interface DataRef {
  readonly path: string;
  readonly sha256: string;
}

/** The data of a job is missing or not the bytes it names: the job fails and is not retried. */
export class DataMismatchError extends BotError {
  constructor(message: string) {
    super(message, { code: 'ERR_SWEEP_DATA' });
  }
}

const known = new Map<string, string>();

export async function fileSha256(path: string): Promise<string> {
  const st = statSync(path);
  const id = `${path}\0${st.size}\0${st.mtimeMs}`;
  const hit = known.get(id);
  if (hit !== undefined) return hit;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const hex = hash.digest('hex');
  known.set(id, hex);
  return hex;
}

export async function hashDataFiles(paths: readonly string[]): Promise<DataRef[]> {
  const out: DataRef[] = [];
  for (const path of paths) out.push({ path, sha256: await fileSha256(path) });
  return out;
}

/** The local paths of a job's data, each checked against its hash; throws DataMismatchError naming file and hash. */
export async function locateData(refs: readonly DataRef[], dataDir?: string): Promise<string[]> {
  const out: string[] = [];
  for (const ref of refs) {
    const candidates = dataDir !== undefined ? [join(dataDir, basename(ref.path)), ref.path] : [ref.path];
    const found = candidates.find((c) => existsSync(c));
    if (found === undefined)
      throw new DataMismatchError(`data file ${basename(ref.path)} (sha256 ${ref.sha256}) not found: looked at ${candidates.join(', ')}`);
    const actual = await fileSha256(found);
    if (actual !== ref.sha256) {
      throw new DataMismatchError(
        `data file ${found} has sha256 ${actual}, the trial needs ${basename(ref.path)} with sha256 ${ref.sha256}: refusing to run on other bytes`,
      );
    }
    out.push(found);
  }
  return out;
}
