import type { ChaosAccount } from './chaos-setup.js';
import { DaemonProcess } from './daemon-process.js';

/**
 * The run's daemons, one per account: started, SIGKILLed and restarted on the same journal, stopped cleanly
 * at the end. A daemon that exits on its own (it should never) is counted as a crash and restarted, so one
 * defect does not end the run before the audit can say what it cost.
 */
export class DaemonFleet {
  readonly processes: DaemonProcess[] = [];
  restarts = 0;
  readonly crashes: string[] = [];
  #stopping = false;

  constructor(readonly accounts: readonly ChaosAccount[]) {}

  start(): void {
    this.accounts.forEach((_, i) => this.#spawn(i));
  }

  /** SIGKILL daemon `i`, keep it down `downMs`, start it again on the same journal. */
  async killAndRestart(i: number, downMs: number): Promise<void> {
    await this.processes[i]!.kill();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    this.restarts += 1;
    this.#spawn(i);
  }

  /** Milliseconds since daemon `i` was (re)started. */
  age(i: number): number {
    return Date.now() - this.processes[i]!.startedAt;
  }

  allRunning(): boolean {
    return this.processes.every((p) => p.running);
  }

  /** SIGTERM every daemon; their exit statuses (0 = a clean stop with its summary). */
  async stopAll(timeoutMs: number): Promise<Array<number | string>> {
    this.#stopping = true;
    return Promise.all(this.processes.map((p) => p.stop(timeoutMs)));
  }

  /** Kills whatever still runs (an aborted run). */
  async killAll(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.processes.map((p) => p.kill()));
  }

  #spawn(i: number): void {
    const a = this.accounts[i]!;
    const p = new DaemonProcess(a.configPath, a.outputPath, { CHAOS_KEY: a.apiKey, CHAOS_SECRET: a.apiSecret }, `daemon ${a.name}`);
    this.processes[i] = p;
    void p.exited.then((status) => {
      if (this.#stopping || p.endedByHarness || this.processes[i] !== p) return;
      this.crashes.push(`daemon ${a.name} exited on its own (${status}) after ${Date.now() - p.startedAt} ms`);
      this.#spawn(i);
    });
  }
}
