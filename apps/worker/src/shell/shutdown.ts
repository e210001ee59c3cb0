import type { Logger } from "@rpcpulse/config";

/** One step of an orderly stop, e.g. "close workers" (waits for in-flight jobs). */
export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export type ShutdownOutcome = "clean" | "step-failed" | "timed-out";

/**
 * Returns an idempotent `shutdown(reason)` that runs the steps in order (each after the previous
 * one finished) under one deadline. A failing step is logged and the next one still runs.
 * Knows nothing of the entry file, so it can be imported from anywhere without a cycle.
 */
export function createShutdown(steps: ShutdownStep[], options: { log: Logger; timeoutMs: number }) {
  let running: Promise<ShutdownOutcome> | undefined;

  const runSteps = async (reason: string): Promise<ShutdownOutcome> => {
    const { log } = options;
    log.info({ reason, timeoutMs: options.timeoutMs }, "shutting down");
    let outcome: ShutdownOutcome = "clean";
    for (const step of steps) {
      const started = performance.now();
      try {
        await step.run();
        log.info({ step: step.name, durationMs: Math.round(performance.now() - started) }, "shutdown step done");
      } catch (error) {
        outcome = "step-failed";
        log.error(
          { step: step.name, err: error instanceof Error ? error.message : String(error) },
          "shutdown step failed",
        );
      }
    }
    return outcome;
  };

  return function shutdown(reason: string): Promise<ShutdownOutcome> {
    if (!running) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<ShutdownOutcome>((resolve) => {
        timer = setTimeout(() => {
          options.log.error({ reason, timeoutMs: options.timeoutMs }, "shutdown timed out");
          resolve("timed-out");
        }, options.timeoutMs);
        timer.unref();
      });
      running = Promise.race([runSteps(reason), deadline]).then((outcome) => {
        clearTimeout(timer);
        if (outcome === "clean") options.log.info({ reason }, "shutdown complete");
        return outcome;
      });
    }
    return running;
  };
}
