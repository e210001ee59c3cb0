import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../src/config/load.js";
import { checkPrometheus } from "../src/doctor/prometheus-checks.js";
import type { ServiceIdentity } from "../src/doctor/unit-settings.js";
import { parseAgentEnv } from "../src/env.js";
import { SUBSTRATE_METRICS } from "./support/prometheus-fixtures.js";

const NO_UNIT: ServiceIdentity = {
  unitPath: null,
  dropIns: [],
  dynamicUser: false,
  user: null,
  capabilities: [],
  protectProc: "default",
  procSubset: "all",
  protectHome: "no",
  privateNetwork: false,
};

test("doctor: Prometheus checks appear only when configured; exposure, textfile directory and node metrics", async () => {
  const none = resolveConfig({ flags: {}, env: parseAgentEnv({}) });
  assert.deepEqual(await checkPrometheus(none, NO_UNIT, { offline: false }), []);

  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-doctor-prom-"));
  const server = http.createServer((_req, res) => res.writeHead(200).end(SUBSTRATE_METRICS));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const env = parseAgentEnv({
      RPCPULSE_METRICS_LISTEN: "0.0.0.0:9465",
      RPCPULSE_TEXTFILE: join(dir, "rpcpulse.prom"),
      RPCPULSE_NODE_METRICS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    });
    const checks = await checkPrometheus(resolveConfig({ flags: {}, env }), NO_UNIT, { offline: false });
    const byId = new Map(checks.map((c) => [c.id, c]));
    assert.equal(byId.get("metrics-listen")?.status, "warn");
    assert.equal(byId.get("textfile")?.status, "ok");
    assert.equal(byId.get("node-metrics")?.status, "ok");
    assert.match(byId.get("node-metrics")!.detail, /substrate metrics \(peers 42, finalized 997, syncing true\)/);

    const local = parseAgentEnv({ RPCPULSE_METRICS_LISTEN: "9465", RPCPULSE_TEXTFILE: "/nonexistent-dir/x.prom" });
    const unit = { ...NO_UNIT, unitPath: "/etc/systemd/system/rpcpulse-agent@.service" };
    const more = new Map(
      (await checkPrometheus(resolveConfig({ flags: {}, env: local }), unit, { offline: true })).map((c) => [c.id, c]),
    );
    assert.equal(more.get("metrics-listen")?.status, "ok");
    assert.equal(more.get("textfile")?.status, "warn");
    assert.match(more.get("textfile")!.detail, /does not exist/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
});
