/**
 * Coalesces analysis requests: the first request after a quiet period runs on the next tick (so a
 * single edit is answered at once), requests arriving while a run is recent are merged into one run
 * `delayMs` after the previous one. While typing, the workspace is re-analysed at most every `delayMs`.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private lastRunEnd = -Infinity;

  /** @param delayMs minimum time between the end of one run and the start of the next (default 150 ms) */
  constructor(private readonly run: () => void, private readonly delayMs = 150) {}

  request(): void {
    if (this.timer) return;
    const wait = this.lastRunEnd + this.delayMs - performance.now();
    const fire = (): void => {
      this.timer = undefined;
      try {
        this.run();
      } finally {
        this.lastRunEnd = performance.now();
      }
    };
    this.timer = wait > 0 ? setTimeout(fire, wait) : setImmediate(fire);
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = undefined;
    }
  }
}
