import type { PayloadOf, QueueName } from "./catalog.js";
import { QUEUE_NAMES } from "./catalog.js";
import { getQueue, type QueueTarget } from "./get-queue.js";
import { parsePayload } from "./parse-payload.js";

/**
 * The one place recurring jobs are declared and registered (BullMQ job schedulers). Schedulers
 * live in Redis, so registering from every worker replica is idempotent; a scheduler that is no
 * longer declared here is removed, so renaming one never leaves a ghost behind.
 */
export interface RecurringJobSettings {
  /** Plain-mode storage maintenance period (partitions, retention, rollup refresh). */
  maintenanceEveryMs: number;
  /** Tuning advisor sweep period (advisor queue); omitted = no advisor schedule. */
  advisorEveryMs?: number;
  /** Public endpoint directory (probe queue); omitted = no directory schedules. */
  directory?: {
    probeEveryMs: number;
    capabilitiesEveryMs: number;
    rankEveryMs: number;
    headsEveryMs?: number;
    publicHeadsEveryMs?: number;
    /** Block producers (witnesses) read from the chain; omitted = the probe round's period. */
    producersEveryMs?: number;
  };
  /** Alert evaluation period (alerts queue); omitted = no alert schedule. */
  alertsEveryMs?: number;
  /** Delivery outbox sweep period (alerts queue); omitted = no sweep schedule. */
  deliverySweepEveryMs?: number;
  /** Status-page uptime days precompute period (maintenance queue); omitted = no schedule. */
  statusUptimeEveryMs?: number;
  /**
   * Shards of the organization sweeps (alert evaluation, advisor sweep, status-page uptime): with
   * N > 1 each becomes N recurring jobs `<id>-shard-<i>-of-<N>`, so N workers' consumers run them at
   * once (one shard on one replica at a time: BullMQ's job lock). 1 or omitted = one job each.
   */
  sweepShards?: number;
}

interface RecurringJob<N extends QueueName = QueueName> {
  id: string;
  queue: N;
  everyMs: number;
  jobName: string;
  payload: PayloadOf<N>;
}

export function listRecurringJobs(settings: RecurringJobSettings): RecurringJob[] {
  return shardSweeps(listUnshardedJobs(settings), settings.sweepShards ?? 1);
}

/** Jobs whose payload a shard narrows to some organizations. */
const SHARDED = new Set(["alerts-evaluate", "advisor-sweep", "maintenance-status-uptime"]);

function shardSweeps(jobs: RecurringJob[], count: number): RecurringJob[] {
  if (count <= 1) return jobs;
  return jobs.flatMap((job) =>
    SHARDED.has(job.id)
      ? Array.from({ length: count }, (_, index) => ({
          ...job,
          id: `${job.id}-shard-${index}-of-${count}`,
          payload: { ...job.payload, shard: { index, count } } as typeof job.payload,
        }))
      : [job],
  );
}

function listUnshardedJobs(settings: RecurringJobSettings): RecurringJob[] {
  const storage: RecurringJob<"maintenance"> = {
    id: "maintenance-storage",
    queue: "maintenance",
    everyMs: settings.maintenanceEveryMs,
    jobName: "maintenance-storage",
    payload: { task: "storage" },
  };
  const alerts: Array<RecurringJob<"alerts">> = [
    ...(settings.alertsEveryMs === undefined
      ? []
      : [
          {
            id: "alerts-evaluate",
            queue: "alerts" as const,
            everyMs: settings.alertsEveryMs,
            jobName: "alerts-evaluate",
            payload: { task: "evaluate" as const },
          },
        ]),
    ...(settings.deliverySweepEveryMs === undefined
      ? []
      : [
          {
            id: "alerts-sweep-deliveries",
            queue: "alerts" as const,
            everyMs: settings.deliverySweepEveryMs,
            jobName: "alerts-sweep-deliveries",
            payload: { task: "sweep-deliveries" as const },
          },
        ]),
  ];
  const statusUptime: Array<RecurringJob<"maintenance">> =
    settings.statusUptimeEveryMs === undefined
      ? []
      : [
          {
            id: "maintenance-status-uptime",
            queue: "maintenance",
            everyMs: settings.statusUptimeEveryMs,
            jobName: "maintenance-status-uptime",
            payload: { task: "status-uptime" },
          },
        ];
  const d = settings.directory;
  if (!d) return [storage, ...statusUptime, ...alerts, ...listAdvisorJobs(settings)];
  const directory: Array<RecurringJob<"probe">> = [
    {
      id: "directory-probe-round",
      queue: "probe",
      everyMs: d.probeEveryMs,
      jobName: "probe-round",
      payload: { task: "round" },
    },
    {
      id: "directory-capabilities",
      queue: "probe",
      everyMs: d.capabilitiesEveryMs,
      jobName: "probe-capabilities",
      payload: { task: "capabilities" },
    },
    {
      id: "directory-rank",
      queue: "probe",
      everyMs: d.rankEveryMs,
      jobName: "directory-rank",
      payload: { task: "rank" },
    },
    {
      id: "network-heads",
      queue: "probe",
      everyMs: d.headsEveryMs ?? 10_000,
      jobName: "network-heads",
      payload: { task: "heads" },
    },
    {
      id: "node-public-heads",
      queue: "probe",
      everyMs: d.publicHeadsEveryMs ?? d.probeEveryMs,
      jobName: "node-public-heads",
      payload: { task: "public-heads" },
    },
    {
      id: "producers",
      queue: "probe",
      everyMs: d.producersEveryMs ?? d.probeEveryMs,
      jobName: "producers",
      payload: { task: "producers" },
    },
  ];
  return [storage, ...statusUptime, ...directory, ...alerts, ...listAdvisorJobs(settings)];
}

function listAdvisorJobs(settings: RecurringJobSettings): Array<RecurringJob<"advisor">> {
  if (settings.advisorEveryMs === undefined) return [];
  return [
    {
      id: "advisor-sweep",
      queue: "advisor",
      everyMs: settings.advisorEveryMs,
      jobName: "advisor-sweep",
      payload: { task: "sweep" },
    },
  ];
}

export interface RegisteredSchedulers {
  upserted: string[];
  removed: string[];
}

export async function registerRecurringJobs(
  target: QueueTarget,
  settings: RecurringJobSettings,
): Promise<RegisteredSchedulers> {
  const jobs = listRecurringJobs(settings);
  const upserted: string[] = [];
  for (const job of jobs) {
    const data = parsePayload(job.queue, job.payload);
    await getQueue(job.queue, target).upsertJobScheduler(job.id, { every: job.everyMs }, { name: job.jobName, data });
    upserted.push(job.id);
  }
  const removed: string[] = [];
  for (const name of QUEUE_NAMES) {
    const queue = getQueue(name, target);
    for (const scheduler of await queue.getJobSchedulers()) {
      const id = scheduler.key;
      if (!upserted.includes(id) && (await queue.removeJobScheduler(id))) removed.push(id);
    }
  }
  return { upserted, removed };
}
