import type { DaemonConfig } from './daemon-config.js';
import { checkReadableFile, checkWritableFile, checkWritableFolder } from './file-paths.js';
import { isRecordFile } from './record-config.js';

/** The daemon's files, checked and absolute (file-paths.ts): nothing in them is touched before all of them pass. */
export interface DaemonFiles {
  readonly journal: string;
  /** Where an earlier journal is moved when the embedded sim starts afresh (`<journal>.prev`). */
  readonly journalAside: string;
  readonly logFile?: string;
  readonly simFile?: string;
  /** The session's recording, file or folder (`record.path`, record-config.ts). */
  readonly recordPath?: string;
}

/**
 * Checks every path of a daemon config before the daemon opens, creates or renames any of them: journal.path (and
 * its `.prev` beside it), log.file, venue.sim.file, record.path (a file or a folder). A bad one is a ConfigError naming the config file and the key.
 * Missing folders are created, unless `createFolders: false` (a check that changes nothing).
 */
export function checkDaemonFiles(cfg: DaemonConfig, configFile: string, cwd: string, o: { readonly createFolders?: boolean } = {}): DaemonFiles {
  const create = o.createFolders === false ? { createFolders: false } : {};
  const journal = checkWritableFile(cfg.journal.path, { configFile, key: 'journal.path', cwd, ...create });
  const journalAside = checkWritableFile(`${journal}.prev`, {
    configFile,
    key: 'journal.path (its previous copy, kept aside for an embedded sim)',
    cwd,
    ...create,
  });
  const logFile = cfg.log.file === undefined ? undefined : checkWritableFile(cfg.log.file, { configFile, key: 'log.file', cwd, ...create });
  const simFileName = cfg.venue.kind === 'sim' ? cfg.venue.sim?.file : undefined;
  const simFile = typeof simFileName === 'string' ? checkReadableFile(simFileName, { configFile, key: 'venue.sim.file', cwd }) : undefined;
  const recordPath =
    cfg.record === undefined
      ? undefined
      : (isRecordFile(cfg.record.path) ? checkWritableFile : checkWritableFolder)(cfg.record.path, { configFile, key: 'record.path', cwd, ...create });
  return {
    journal,
    journalAside,
    ...(logFile !== undefined ? { logFile } : {}),
    ...(simFile !== undefined ? { simFile } : {}),
    ...(recordPath !== undefined ? { recordPath } : {}),
  };
}
