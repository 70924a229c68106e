/**
 * Whether the CLI owns its process (bin/bot.js runs it), or was called in a process that goes on after it (a test
 * harness calling main()). Only an owner may end the process.
 */
let owned = false;

/** bin/bot.js's call: this process is the command's. */
export function ownProcess(): void {
  owned = true;
}

/** How long a finished command waits for its process to end by itself before ending it. */
export const LEFT_OPEN_GRACE_MS = 2000;

/**
 * Once a command that runs until it is stopped has finished (the daemon stopped, its journal flushed, its summary or
 * emergency line printed): whatever something else left open, such as a strategy module's timer or socket, must not
 * keep the process alive. A supervisor waits for the exit (and its code: 4 after an emergency stop) to restart or
 * alert. An unref'd timer: a process with nothing left open ends before it fires, as it always did; one that is
 * still alive after the grace is ended with the exit code set, and one line says why. A failure after the command
 * finished ends it at once, the same way.
 */
export function endWhenFinished(command: string, graceMs = LEFT_OPEN_GRACE_MS): void {
  if (!owned) return;
  // The command's own handlers (the daemon's emergency routing) are gone once it has finished: a failure in what is
  // left (a strategy module's timer that throws again) ends the process here with one line and its exit code (4
  // after an emergency stop stays 4), not with Node's stack trace and 1.
  const afterwards = (kind: string) => (error: unknown) => {
    process.stderr.write(`bot ${command}: after it finished: ${kind}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : 1);
  };
  process.on('uncaughtException', afterwards('uncaught exception'));
  process.on('unhandledRejection', afterwards('unhandled rejection'));
  setTimeout(() => {
    process.stderr.write(
      `bot ${command}: finished, but something left open (a timer or socket of a strategy module?) kept the process alive for ${graceMs / 1000} s: exiting\n`,
    );
    process.exit();
  }, graceMs).unref();
}
