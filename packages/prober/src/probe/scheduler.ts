export interface ProbeSchedulerOptions<T, R> {
  /** Probes in flight at most. */
  concurrency: number;
  /** Start of one round to the start of the next. */
  intervalMs: number;
  /** 0..1: starts of a round are spread (stratified random offsets) over this share of the interval. */
  jitter: number;
  /** Does the work for one target; should not throw (a thrown error is reported as `error`). */
  run(target: T): Promise<R>;
  /** Called once per finished target. */
  onResult(target: T, result: R | undefined, error?: unknown): void;
  /** Called when a round finished (all its targets done). */
  onRoundEnd?(stats: RoundStats): void;
  random?: () => number;
}

export interface RoundStats {
  round: number;
  started: number;
  completed: number;
  /** Targets skipped because their previous probe was still running. */
  skipped: number;
  durationMs: number;
}

export interface ProbeScheduler<T> {
  /** Starts rounds over `targets` every intervalMs (the list may be replaced with setTargets). */
  start(targets: readonly T[]): void;
  setTargets(targets: readonly T[]): void;
  /** Runs a single round now (starts spread over `spreadMs`, default 0) and resolves when every target in it finished. */
  runRound(targets?: readonly T[], spreadMs?: number): Promise<RoundStats>;
  /** Stops starting new probes; resolves when in-flight ones finished. */
  stop(): Promise<void>;
  inFlight(): number;
}

/**
 * Bounded-concurrency round scheduler. A target is never probed twice at once (a slow endpoint is
 * skipped for a round rather than stacked), at most `concurrency` probes run together (latency
 * measured under load stays honest), and starts are spread over `jitter * intervalMs`.
 */
export function createProbeScheduler<T, R>(options: ProbeSchedulerOptions<T, R>): ProbeScheduler<T> {
  if (!(options.concurrency >= 1)) throw new RangeError("concurrency must be >= 1");
  if (!(options.jitter >= 0 && options.jitter <= 1)) throw new RangeError("jitter must be within [0, 1]");
  const random = options.random ?? Math.random;
  let targets: readonly T[] = [];
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let roundNo = 0;
  let active = 0;
  const busy = new Set<T>();
  const queue: Array<() => void> = [];
  const idleWaiters: Array<() => void> = [];

  const release = (): void => {
    active--;
    const next = queue.shift();
    if (next) next();
    else if (active === 0) idleWaiters.splice(0).forEach((w) => w());
  };
  const acquire = (): Promise<void> =>
    new Promise((resolve) => {
      if (active < options.concurrency) {
        active++;
        resolve();
      } else {
        queue.push(() => {
          active++;
          resolve();
        });
      }
    });

  async function runOne(target: T): Promise<void> {
    await acquire();
    try {
      const result = await options.run(target);
      options.onResult(target, result);
    } catch (err) {
      options.onResult(target, undefined, err);
    } finally {
      busy.delete(target);
      release();
    }
  }

  async function runRound(list: readonly T[] = targets, spreadMs = 0): Promise<RoundStats> {
    const round = ++roundNo;
    const t0 = performance.now();
    let skipped = 0;
    const jobs: Promise<void>[] = [];
    const count = list.length;
    for (const [k, target] of list.entries()) {
      if (busy.has(target)) {
        skipped++;
        continue;
      }
      busy.add(target);
      // Stratified jitter: target k starts at a random point of its own 1/count slice of the spread,
      // so starts are random yet never bunch up (bunched starts queue on the CPU and inflate latency).
      const delay = spreadMs > 0 ? ((k + random()) / count) * spreadMs : 0;
      const start = (): Promise<void> => {
        if (stopped) {
          busy.delete(target);
          return Promise.resolve();
        }
        return runOne(target);
      };
      jobs.push(delay > 0 ? new Promise<void>((r) => setTimeout(r, delay)).then(start) : start());
    }
    await Promise.all(jobs);
    const stats = { round, started: jobs.length, completed: jobs.length, skipped, durationMs: performance.now() - t0 };
    options.onRoundEnd?.(stats);
    return stats;
  }

  const tick = (): void => {
    if (!running) return;
    void runRound(targets, options.jitter * options.intervalMs);
    timer = setTimeout(tick, options.intervalMs);
  };

  return {
    start(list) {
      targets = list;
      if (running) return;
      running = true;
      stopped = false;
      tick();
    },
    setTargets(list) {
      targets = list;
    },
    runRound: (list, spreadMs = 0) => {
      stopped = false;
      return runRound(list ?? targets, spreadMs);
    },
    async stop() {
      running = false;
      stopped = true;
      if (timer) clearTimeout(timer);
      if (active > 0 || queue.length > 0) await new Promise<void>((r) => idleWaiters.push(r));
    },
    inFlight: () => active,
  };
}
