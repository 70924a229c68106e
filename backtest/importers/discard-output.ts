import { rmSync } from 'node:fs';
import type { RecordingWriter } from '../../src/recording/recording-writer.js';

/**
 * Closes and removes what an import wrote before it failed: a recording cut at a bad line would look
 * like a shorter capture, and would block the rerun (imports refuse an existing --out).
 */
export async function discard(writer: RecordingWriter): Promise<void> {
  await writer.close().catch(() => undefined);
  for (const f of writer.files) rmSync(f, { force: true });
}
