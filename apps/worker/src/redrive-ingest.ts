// npm run ingest:redrive [-- --dry-run] [-- --limit N]
// Moves parked ingest jobs (failed after their last attempt, kept in Redis) back to the queue with
// their attempts reset; the running workers write them. Job ids do not change, so a batch is still
// stored once. Reads REDIS_URL and QUEUE_PREFIX like the worker.
import { parseArgs } from "node:util";
import {
  closeQueues,
  createRedisClient,
  listParkedJobs,
  readQueueLoad,
  redriveParkedJobs,
  type QueueTarget,
} from "@rpcpulse/queue";
import { loadWorkerEnv } from "./env.js";

const USAGE = `usage: npm run ingest:redrive [-- --dry-run] [-- --limit N]
  --dry-run   list the oldest parked ingest jobs and their last error; move nothing
  --limit N   re-drive at most N jobs (default: all)`;

const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    limit: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const limit = values.limit === undefined ? Number.MAX_SAFE_INTEGER : Number(values.limit);
if (!Number.isSafeInteger(limit) || limit < 0) {
  process.stderr.write(`--limit must be a whole number\n${USAGE}\n`);
  process.exit(2);
}

const env = loadWorkerEnv();
const redis = createRedisClient(
  { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES },
  { role: "worker", connectionName: "rpcpulse-ingest-redrive" },
);
const target: QueueTarget = { connection: redis, prefix: env.QUEUE_PREFIX };
try {
  const before = await readQueueLoad(target, "ingest");
  process.stdout.write(
    `ingest queue ${env.QUEUE_PREFIX}: ${before.backlog} waiting or retrying, ${before.parked} parked\n`,
  );
  if (values["dry-run"]) {
    for (const job of await listParkedJobs(target, "ingest", Math.min(limit, 50))) {
      const at = job.finishedOn ? new Date(job.finishedOn).toISOString() : "?";
      process.stdout.write(`  ${job.id}  parked ${at} after ${job.attemptsMade} attempts: ${job.failedReason}\n`);
    }
    process.stdout.write("dry run: nothing moved\n");
  } else {
    const moved = await redriveParkedJobs(target, "ingest", limit);
    process.stdout.write(`re-driven: ${moved} job(s) back in the queue with fresh attempts\n`);
  }
} finally {
  await closeQueues(redis);
  redis.disconnect();
}
