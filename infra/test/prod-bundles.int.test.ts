/**
 * The production bundles run as the images run them: `npm run build` of apps/worker and apps/ingest
 * (scripts/bundle-server.mjs), written to a folder outside the repository (no node_modules to fall
 * back on, like /app in the image), then started with plain `node` (no tsx, no loader):
 *   - migrate.mjs creates and migrates a fresh database from the copied SQL and seeds it, exit 0;
 *   - worker.mjs (NODE_ENV=production, its key given as SECRETS_ENCRYPTION_KEY_FILE) answers /healthz
 *     with postgres and redis ok, and exits 0 on SIGTERM after its shutdown steps;
 *   - ingest.mjs (DATABASE_URL_FILE, two cluster workers forked from the bundle) answers /healthz and
 *     exits 0 on SIGTERM.
 * The web app's production server (Next.js standalone output, plain node) is started by scripts/e2e.sh.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVER_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `rpcpulse_t_${randomBytes(6).toString("hex")}`;
const DATABASE_URL = `postgresql://postgres@127.0.0.1:5432/${DB_NAME}`;
const QUEUE_PREFIX = `rpcpulse-t-bundles-${randomBytes(4).toString("hex")}`;
/** Externals a bundle may import besides Node built-ins: the copied Prisma client, optional add-ons. */
const ALLOWED_EXTERNALS = new Set([
  "./prisma-client/index.js",
  "pg-native",
  "msgpackr-extract",
  "bufferutil",
  "utf-8-validate",
  "@valkey/valkey-glide",
]);

let work = "";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Environment of a started bundle: nothing inherited that could point it at tsx or the repository. */
function baseEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    REDIS_URL: "redis://127.0.0.1:6379",
    QUEUE_PREFIX,
    ...extra,
  };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startBundle(file: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, [file], { cwd: path.dirname(file), env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function waitForHealth(url: string, started: Started, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null)
      assert.fail(`exited ${started.child.exitCode} before healthy:\n${started.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.ok && body.status === "ok") return body;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${url} never answered ok (last: ${last}):\n${started.output()}`);
}

async function stopAndExpectClean(started: Started, timeoutMs = 30_000): Promise<void> {
  started.child.kill("SIGTERM");
  const timer = setTimeout(() => started.child.kill("SIGKILL"), timeoutMs);
  const { code, signal } = await started.exited;
  clearTimeout(timer);
  assert.equal(signal, null, `killed by ${signal} instead of exiting on SIGTERM:\n${started.output()}`);
  assert.equal(code, 0, `exit code ${code} after SIGTERM:\n${started.output()}`);
}

/**
 * The app's own `npm run build`, with its output sent outside the repository (the last --out wins):
 * no node_modules to fall back on, and the shared apps/<app>/dist of a concurrent e2e run is left alone.
 */
async function buildOutside(app: string): Promise<string> {
  const target = path.join(work, app);
  await run("npm", ["run", "build", "--silent", "--", "--out", target], {
    cwd: path.join(repoRoot, "apps", app),
    maxBuffer: 16 << 20,
  });
  return target;
}

function readManifest(dir: string): Record<string, { bytes: number; externals: string[] }> {
  return JSON.parse(readFileSync(path.join(dir, "bundle-manifest.json"), "utf8"));
}

describe("production bundles started with plain node", () => {
  let workerDir = "";
  let ingestDir = "";

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "rpcpulse-bundles-"));
    workerDir = await buildOutside("worker");
    ingestDir = await buildOutside("ingest");
  });

  after(async () => {
    rmSync(work, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await admin.end();
  });

  test("bundles import only Node built-ins, the copied Prisma client and optional add-ons", () => {
    for (const dir of [workerDir, ingestDir]) {
      for (const [file, info] of Object.entries(readManifest(dir))) {
        const unexpected = info.externals.filter((e) => !ALLOWED_EXTERNALS.has(e));
        assert.deepEqual(unexpected, [], `${file} imports packages that are not in the image`);
        const text = readFileSync(path.join(dir, file), "utf8");
        assert.doesNotMatch(text, /from\s+["']tsx["']|--import\s+tsx/, `${file} refers to tsx`);
      }
    }
  });

  test("migrate.mjs creates, migrates and seeds a fresh database from the copied migrations", async () => {
    const migrate = startBundle(
      path.join(workerDir, "migrate.mjs"),
      baseEnv({ DATABASE_URL, MIGRATIONS_DIR: path.join(workerDir, "migrations") }),
    );
    const { code } = await migrate.exited;
    assert.equal(code, 0, migrate.output());
    assert.match(migrate.output(), /migrate done \((plain|timescale) mode, \d+ applied\)/);
    const db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM chains");
      assert.ok((rows[0]?.n ?? 0) > 0, "the chain catalogue was seeded through the bundled Prisma client");
    } finally {
      await db.end();
    }
  });

  test("worker.mjs is healthy, reads its key from a *_FILE secret, and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const keyFile = path.join(work, "secrets_encryption_key");
    writeFileSync(keyFile, `${randomBytes(24).toString("hex")}\n`, { mode: 0o600 });
    const worker = startBundle(
      path.join(workerDir, "worker.mjs"),
      baseEnv({
        DATABASE_URL,
        SECRETS_ENCRYPTION_KEY_FILE: keyFile,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: String(port),
        WORKER_ID: "bundle-test-worker",
        PROBE_ONLY_PRIVATE: "true",
      }),
    );
    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`, worker);
    assert.deepEqual(health.checks, { redis: "ok", postgres: "ok" });
    assert.equal(health.workerId, "bundle-test-worker");
    await stopAndExpectClean(worker);
    assert.match(worker.output(), /shutdown complete/);
  });

  test("ingest.mjs (two cluster workers forked from the bundle) is healthy and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const urlFile = path.join(work, "database_url");
    writeFileSync(urlFile, `${DATABASE_URL}\n`, { mode: 0o600 });
    const ingest = startBundle(
      path.join(ingestDir, "ingest.mjs"),
      baseEnv({ DATABASE_URL_FILE: urlFile, INGEST_HOST: "127.0.0.1", INGEST_PORT: String(port), INGEST_WORKERS: "2" }),
    );
    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`, ingest);
    assert.deepEqual(health.checks, { redis: "ok", postgres: "ok" });
    await stopAndExpectClean(ingest);
  });
});
