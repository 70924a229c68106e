import { oncePerRun } from '../../helpers/once-per-run.js';
import { recordSession, type SessionFiles } from './session-fixture.js';

export type SessionPaths = Omit<SessionFiles, 'daemon'>;

/**
 * recordSession, once per run of the suite (test/helpers/once-per-run.ts), for the tests that only read its files:
 * cli-parity and parity-html record the same 90-snapshot session (~1 s of CPU each). Outside the suite, in `ownDir`.
 * Readers write their outputs elsewhere: the session's folder is shared.
 */
export function sessionOnce(ownDir: string, o: { snapshots: number }): Promise<SessionPaths> {
  return oncePerRun(`parity-session-${o.snapshots}`, ownDir, async (dir) => {
    const { daemon: _daemon, ...paths } = await recordSession(dir, o);
    return paths;
  });
}
