/**
 * Streams the lines of capture files (gzip when the name ends in `.gz`), so a capture of any size is
 * read in constant memory. Reports progress as compressed bytes read of the total size of all files:
 * the only measure known before the end for a gzip stream.
 */
import { createReadStream, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { CaptureFormatError } from './capture-format-error.js';

/** Called as the files are read: bytes read so far and the total, over all files. */
export type ImportProgress = (done: number, total: number) => void;

export interface TextLine {
  readonly file: string;
  /** 1-based line number in its file. */
  readonly lineNo: number;
  readonly text: string;
}

export async function* readTextLines(files: readonly string[], onProgress?: ImportProgress): AsyncGenerator<TextLine> {
  let total = 0;
  for (const file of files) {
    try {
      total += statSync(file).size;
    } catch (error) {
      throw new CaptureFormatError(`${file}: cannot read (${(error as Error).message})`, error);
    }
  }
  let done = 0;
  for (const file of files) {
    const source = createReadStream(file, { highWaterMark: 1 << 20 });
    if (onProgress) {
      source.on('data', (chunk) => {
        done += chunk.length;
        onProgress(done, total);
      });
    }
    // pipe() does not pass the file's errors on: forwarded, a missing .gz fails like a missing plain file
    const gunzip = file.endsWith('.gz') ? createGunzip() : undefined;
    if (gunzip) source.once('error', (error) => gunzip.destroy(error));
    const stream = gunzip ? source.pipe(gunzip) : source;
    let rest = '';
    let lineNo = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const text = rest + chunk.toString('utf8');
        let start = 0;
        for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
          lineNo += 1;
          const end = nl > start && text.charCodeAt(nl - 1) === 13 /* \r */ ? nl - 1 : nl;
          yield { file, lineNo, text: text.slice(start, end) };
          start = nl + 1;
        }
        rest = text.slice(start);
      }
      if (rest.length > 0) yield { file, lineNo: lineNo + 1, text: rest };
    } catch (error) {
      if (error instanceof CaptureFormatError) throw error;
      throw new CaptureFormatError(`${file}: cannot read (${(error as Error).message})`, error);
    } finally {
      source.destroy();
    }
  }
}
