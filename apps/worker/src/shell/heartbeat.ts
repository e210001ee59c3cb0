import type { Logger } from "@rpcpulse/config";

export interface Heartbeat {
  /** Stops the loop and waits for a beat in flight. */
  stop: () => Promise<void>;
}

/**
 * Calls `beat` now and then every `intervalMs` (never two at once). A failing beat (database down)
 * is logged and the loop goes on; the next success brings lastSeenAt up to date again.
 */
export function startHeartbeat(beat: () => Promise<void>, options: { intervalMs: number; log: Logger }): Heartbeat {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let failing = false;

  const tick = () => {
    inFlight = beat()
      .then(() => {
        if (failing) options.log.info("heartbeat recovered");
        failing = false;
      })
      .catch((error: unknown) => {
        // Log the first failure loudly, then quietly until it recovers.
        const level = failing ? "debug" : "warn";
        failing = true;
        options.log[level]({ err: error instanceof Error ? error.message : String(error) }, "heartbeat failed");
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  tick();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
