const handled = new WeakSet<NodeJS.WriteStream>();

/**
 * `bot ... | head`: the reader may close the pipe before everything is written. Node reports that as an 'error'
 * event (EPIPE) on stdout, and an 'error' event nobody listens to ends the process with a stack trace and exit 1.
 * Nobody is left to read what is still to come, so it is dropped, and the command ends as it would have.
 * Once per stream (main() may run more than once in a process: the tests run it in-process).
 */
export function dropOutputToClosedPipe(stream: NodeJS.WriteStream): void {
  if (handled.has(stream)) return;
  handled.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    throw error;
  });
}
