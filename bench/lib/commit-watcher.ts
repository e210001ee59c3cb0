/**
 * Receipt → commit for the ingest benches: the time from handing a batch to the ingest API until
 * its sample is visible in the database, found by polling `node_latest` (the pointer the writer
 * moves in the same transaction as the COPY). A node's newest committed time covers every earlier
 * expected sample of that node, so a later batch overtaking an earlier one is still counted.
 */
import type pg from "pg";

export interface CommitWatcher {
  /** Expect node's sample at `sampleTimeMs`, sent at `sentAt` (performance.now()). */
  expect(nodeId: string, sampleTimeMs: number, sentAt: number): void;
  /** The batch was refused: stop waiting for it. */
  forget(nodeId: string, sampleTimeMs: number): void;
  /** Batches expected and not yet seen. */
  outstanding(): number;
  /** Durations of the polls so far (ms), for the bench's own overhead. */
  readonly pollMs: number[];
  /** Wait until nothing is outstanding or `timeoutMs` passed; then stop polling. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Poll every `intervalMs`; `onCommit` gets each batch's latency (ms), when it was sent and its sample time. */
export function watchCommits(
  pool: pg.Pool | pg.Client,
  intervalMs: number,
  onCommit: (latencyMs: number, sentAt: number, sampleTimeMs: number) => void,
): CommitWatcher {
  const waiting = new Map<string, { time: number; sentAt: number }[]>();
  let count = 0;
  let running = true;
  const pollMs: number[] = [];

  const oldestExpected = () => {
    let min = Infinity;
    for (const list of waiting.values()) for (const e of list) if (e.time < min) min = e.time;
    return min;
  };

  const poll = async () => {
    const since = oldestExpected();
    if (since === Infinity) return;
    const started = performance.now();
    const { rows } = await pool.query<{ node_id: string; time: Date }>(
      "SELECT node_id, time FROM node_latest WHERE time >= $1",
      [new Date(since)],
    );
    const now = performance.now();
    pollMs.push(now - started);
    for (const row of rows) {
      const list = waiting.get(row.node_id);
      if (!list) continue;
      const committed = row.time.getTime();
      const rest = list.filter((e) => {
        if (e.time > committed) return true;
        onCommit(now - e.sentAt, e.sentAt, e.time);
        count--;
        return false;
      });
      if (rest.length === 0) waiting.delete(row.node_id);
      else waiting.set(row.node_id, rest);
    }
  };

  const loop = (async () => {
    while (running || count > 0) {
      await poll();
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();

  return {
    expect(nodeId, time, sentAt) {
      const list = waiting.get(nodeId);
      if (list) list.push({ time, sentAt });
      else waiting.set(nodeId, [{ time, sentAt }]);
      count++;
    },
    forget(nodeId, time) {
      const list = waiting.get(nodeId);
      const i = list?.findIndex((e) => e.time === time) ?? -1;
      if (!list || i < 0) return;
      list.splice(i, 1);
      if (list.length === 0) waiting.delete(nodeId);
      count--;
    },
    outstanding: () => count,
    pollMs,
    async stop(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (count > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      running = false;
      waiting.clear();
      count = 0;
      await loop;
    },
  };
}
