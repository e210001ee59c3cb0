import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { agentBatchSchema, type AgentBatch } from "@rpcpulse/domain";
import { waitFor } from "@rpcpulse/config/testing";
import { readOrCreateInstallId } from "../src/push/install-id.js";
import { Spool } from "../src/push/spool.js";
import { backoffDelayMs, parseRetryAfter } from "../src/push/sender.js";

const CLI = new URL("../src/cli.ts", import.meta.url).pathname;
const CWD = new URL("..", import.meta.url).pathname;

interface Received {
  at: number;
  seq: number;
  auth: string | undefined;
  batch: AgentBatch;
}

/** A real ingest receiver; `decide` picks the status (and headers) for each request. */
async function receiver(decide: (n: number, r: Received) => { status: number; headers?: Record<string, string> }) {
  const got: Received[] = [];
  const attempts: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      assert.equal(req.headers["content-encoding"], "gzip");
      const batch = agentBatchSchema.parse(JSON.parse(gunzipSync(Buffer.concat(chunks)).toString("utf8")));
      const r: Received = { at: Date.now(), seq: batch.batchSeq, auth: req.headers.authorization, batch };
      attempts.push(r);
      const d = decide(attempts.length, r);
      if (d.status >= 200 && d.status < 300) got.push(r);
      res.writeHead(d.status, d.headers ?? {});
      res.end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ingest`;
  return {
    url,
    got,
    attempts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function startAgent(args: string[], env: Record<string, string>): ChildProcess & { stderrText: () => string } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "run", "--interval", "1s", "--log-level", "debug", ...args],
    {
      cwd: CWD,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return Object.assign(child, { stderrText: () => stderr });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = (await once(child, "exit")) as [number | null];
  return code;
}

test("spool: durable files in seq order, seq never reused across restarts, oldest dropped first and counted", () => {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-spool-"));
  try {
    const s = new Spool({ dir: join(dir, "spool"), maxBytes: 1000, maxAgeMs: 60_000 });
    const body = (n: number) => gzipSync(Buffer.alloc(n, 1));
    for (let i = 0; i < 3; i++) s.enqueue(s.nextSeq(), body(10), 1_000_000);
    assert.deepEqual([s.size, s.oldest()?.seq], [3, 1]);
    writeFileSync(join(dir, "spool", "0000000000000009.json.gz.tmp-123"), "partial"); // a crash mid-write
    const again = new Spool({ dir: join(dir, "spool"), maxBytes: 1000, maxAgeMs: 60_000 });
    assert.equal(again.size, 3);
    assert.ok(!readdirSync(join(dir, "spool")).some((n) => n.includes(".tmp-")), "unflushed temp files are removed");
    assert.equal(again.nextSeq(), 4);
    again.remove(1);
    again.remove(2);
    again.remove(3);
    const third = new Spool({ dir: join(dir, "spool"), maxBytes: 1000, maxAgeMs: 60_000 });
    assert.equal(third.nextSeq(), 5, "the persisted sequence survives an empty spool");
    // Size bound: each file ~ 600 bytes gzip'd random-ish data; the oldest go first.
    const big = () => gzipSync(randomBytes(600)); // incompressible: ~620 bytes, two exceed the 1000-byte bound
    third.enqueue(6, big(), 2_000_000);
    third.enqueue(7, big(), 2_000_000);
    assert.equal(third.oldest()?.seq, 7);
    assert.equal(third.dropped, 1);
    // Age bound.
    third.enqueue(8, body(10), 2_000_000 + 61_000);
    assert.equal(third.oldest()?.seq, 8);
    assert.equal(third.dropped, 2);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("Retry-After parsing and jittered exponential backoff", () => {
  assert.equal(parseRetryAfter("2"), 2000);
  assert.equal(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())! > 3000, true);
  assert.equal(parseRetryAfter("soon"), null);
  assert.equal(
    backoffDelayMs(0, 1000, 300_000, () => 0.5),
    500,
  );
  assert.equal(
    backoffDelayMs(3, 1000, 300_000, () => 0.5),
    4000,
  );
  assert.equal(
    backoffDelayMs(40, 1000, 300_000, () => 0.999),
    299_700,
  );
  assert.equal(
    backoffDelayMs(0, 1000, 300_000, () => 0),
    100,
  );
});

test("run: outage (503), 429 Retry-After and a 400 — everything else arrives once, in order", async () => {
  const state = mkdtempSync(join(tmpdir(), "rpcpulse-run-"));
  let rejectedSeq = -1;
  let limitedAt = 0;
  let limitedAttempt = 0;
  let firstAt = 0;
  // The outage lasts 2.5 s of wall time (not a number of attempts), so with a 1 s interval at least
  // two batches are sealed while the first is still undelivered, whatever the backoff jitter draws.
  const rx = await receiver((n, r) => {
    if (n === 1) firstAt = r.at;
    if (limitedAttempt === 0 && r.at - firstAt < 2_500) return { status: 503 };
    if (limitedAttempt === 0) {
      limitedAttempt = n;
      limitedAt = r.at;
      return { status: 429, headers: { "retry-after": "1" } };
    }
    if (n === limitedAttempt + 2) {
      rejectedSeq = r.seq;
      return { status: 400 };
    }
    return { status: 202 };
  });
  const agent = startAgent(["--state-dir", state, "--ingest-url", rx.url, "--node-id", "node_1"], {
    RPCPULSE_TOKEN: "rpa_first_token_abc",
  });
  try {
    await waitFor("8 delivered batches", () => rx.got.length >= 8, 30_000);
    const seqs = rx.got.map((r) => r.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      "delivered in seq order",
    );
    assert.equal(new Set(seqs).size, seqs.length, "no batch delivered twice");
    assert.ok(!seqs.includes(rejectedSeq), "the 400'd batch was dropped, not retried");
    const expected = Array.from({ length: seqs.at(-1)! }, (_, i) => i + 1).filter((s) => s !== rejectedSeq);
    assert.deepEqual(seqs, expected, "no gap other than the rejected batch");
    const afterLimit = rx.attempts[limitedAttempt]!;
    assert.ok(afterLimit.at - limitedAt >= 950, `Retry-After honoured (${afterLimit.at - limitedAt} ms)`);
    assert.equal(rx.got[0]!.auth, "Bearer rpa_first_token_abc");
    assert.equal(rx.got[0]!.batch.nodeId, "node_1");
    assert.ok(
      rx.got.some((r) => (r.batch.samples[0]!.self?.spoolBacklog ?? 0) > 0),
      "the backlog during the outage is reported",
    );
    assert.match(agent.stderrText(), /batch rejected by the server: dropped/);
    assert.equal(await stop(agent), 0);
  } finally {
    await stop(agent);
    await rx.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test("run: kill -9 loses no spooled batch; the restart replays them first and continues the sequence", async () => {
  const state = mkdtempSync(join(tmpdir(), "rpcpulse-run-"));
  let accept = false;
  const rx = await receiver(() => ({ status: accept ? 200 : 503 }));
  const env = { RPCPULSE_TOKEN: "rpa_first_token_abc" };
  const first = startAgent(["--state-dir", state, "--ingest-url", rx.url], env);
  try {
    const spoolDir = join(state, "spool");
    await waitFor(
      "3 spooled batches",
      () => existsSync(spoolDir) && readdirSync(spoolDir).filter((n) => n.endsWith(".json.gz")).length >= 3,
      20_000,
    );
    await stop(first, "SIGKILL");
    const files = readdirSync(spoolDir)
      .filter((n) => n.endsWith(".json.gz"))
      .sort();
    const spooled = files.map(
      (f) => agentBatchSchema.parse(JSON.parse(gunzipSync(readFileSync(join(spoolDir, f))).toString("utf8"))).batchSeq,
    );
    assert.ok(spooled.length >= 3);
    accept = true;
    const second = startAgent(["--state-dir", state, "--ingest-url", rx.url], env);
    try {
      await waitFor("replay and new batches", () => rx.got.length >= spooled.length + 2, 20_000);
      const seqs = rx.got.map((r) => r.seq);
      assert.deepEqual(seqs.slice(0, spooled.length), spooled, "the spooled batches come first, in order");
      assert.ok(
        seqs.slice(spooled.length).every((s) => s > Math.max(...spooled)),
        "new batches continue the sequence",
      );
      assert.equal(new Set(seqs).size, seqs.length);
    } finally {
      await stop(second);
    }
  } finally {
    await stop(first, "SIGKILL");
    await rx.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test("run: a rejected token (401) keeps batches; SIGHUP re-reads the token file and delivery resumes", async () => {
  const state = mkdtempSync(join(tmpdir(), "rpcpulse-run-"));
  const tokenFile = join(state, "token");
  writeFileSync(tokenFile, "rpa_old_token_0000\n");
  const rx = await receiver((_n, r) => ({ status: r.auth === "Bearer rpa_new_token_1111" ? 200 : 401 }));
  const agent = startAgent(["--state-dir", state, "--ingest-url", rx.url, "--token-file", tokenFile], {});
  try {
    await waitFor("a 401", () => rx.attempts.length >= 1, 20_000);
    assert.equal(rx.got.length, 0);
    writeFileSync(tokenFile, "rpa_new_token_1111\n");
    agent.kill("SIGHUP");
    await waitFor("delivery with the new token", () => rx.got.length >= 2, 20_000);
    assert.equal(rx.got[0]!.seq, 1, "the batch refused with the old token is delivered, not lost");
    assert.match(agent.stderrText(), /configuration reloaded \(SIGHUP\)/);
    assert.doesNotMatch(agent.stderrText(), /rpa_new_token_1111|rpa_old_token_0000/, "tokens never reach the log");
  } finally {
    await stop(agent);
    await rx.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test("install id: created once in the state dir, kept across restarts, new after a reinstall", () => {
  const state = mkdtempSync(join(tmpdir(), "rpcpulse-install-"));
  try {
    const id = readOrCreateInstallId(state);
    assert.match(id, /^[A-Za-z0-9_-]{16,64}$/);
    assert.equal(readFileSync(join(state, "install-id"), "utf8").trim(), id);
    assert.equal(readOrCreateInstallId(state), id, "stable across restarts");
    writeFileSync(join(state, "install-id"), "not an id\n");
    const replaced = readOrCreateInstallId(state);
    assert.notEqual(replaced, id, "an unreadable id is replaced");
    rmSync(state, { recursive: true, force: true });
    assert.notEqual(readOrCreateInstallId(state), replaced, "a lost state directory means a new install");
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test("run: batches carry the install id; a 503 with Retry-After (backpressure) is waited out, the batch kept", async () => {
  const state = mkdtempSync(join(tmpdir(), "rpcpulse-run-"));
  const rx = await receiver((n) => (n === 1 ? { status: 503, headers: { "retry-after": "2" } } : { status: 202 }));
  const agent = startAgent(["--state-dir", state, "--ingest-url", rx.url], { RPCPULSE_TOKEN: "rpa_first_token_abc" });
  try {
    await waitFor("two deliveries", () => rx.got.length >= 2, 30_000);
    const installId = readFileSync(join(state, "install-id"), "utf8").trim();
    assert.ok(
      rx.attempts.every((r) => r.batch.installId === installId),
      "every batch names the install",
    );
    assert.equal(rx.got[0]!.seq, 1, "the batch refused with 503 is delivered, not dropped");
    const waited = rx.attempts[1]!.at - rx.attempts[0]!.at;
    assert.ok(waited >= 1_950, `Retry-After honoured on 503 (${waited} ms)`);
    assert.match(agent.stderrText(), /server busy \(503\): keeping the spool, waiting for Retry-After/);
  } finally {
    await stop(agent);
    await rx.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test("run without an ingest URL or token is a usage error (exit 2)", async () => {
  const agent = startAgent(["--state-dir", "/tmp/none"], {});
  const [code] = (await once(agent, "exit")) as [number];
  assert.equal(code, 2);
  assert.match(agent.stderrText(), /--ingest-url .* is required unless --dry-run/);
});
