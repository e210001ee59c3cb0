import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";
import { createOrgApiKey, keyClient } from "../fixtures/org-api-keys.js";

/**
 * Automation with an organization API key, no UI: scripts/enroll-nodes.ts enrolls 50 nodes through
 * POST /api/orgs/:org/nodes (bounded concurrency), three real agents (the apps/agent bundle) run with
 * the tokens it printed against simnet, and their samples arrive, read back through the API with the
 * same key. Then rename, move, rotate and delete through the API, the OpenAPI document, and revocation.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const AGENT = join(ROOT, "apps/agent/dist/rpcpulse-agent.mjs");
const SIMNET_HIVE_URL = process.env.E2E_SIMNET_HIVE_URL ?? "http://127.0.0.1:18091";

interface Enrolled {
  nodeId: string;
  name: string;
  token: string;
  ingestUrl: string;
}

/** Run scripts/enroll-nodes.ts with these options (`--name value`) and the key in its environment. */
function enrollScript(options: Record<string, string>, key: string): Promise<{ code: number; stderr: string }> {
  const args = ["scripts/enroll-nodes.ts", ...Object.entries(options).flatMap(([k, v]) => [`--${k}`, v])];
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, "node_modules/.bin/tsx"), args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", RPCPULSE_API_KEY: key },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, stderr }));
  });
}

/** The real agent (apps/agent bundle) pushing one node's samples from simnet to the ingest URL. */
function startAgent(node: Enrolled, stateDir: string): ChildProcess {
  const flags = {
    family: "hive",
    "rpc-url": SIMNET_HIVE_URL,
    "ingest-url": node.ingestUrl,
    "node-id": node.nodeId,
    interval: "2s",
    "state-dir": stateDir,
  };
  return spawn(process.execPath, [AGENT, "run", ...Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v])], {
    env: { PATH: process.env.PATH, RPCPULSE_TOKEN: node.token, RPCPULSE_LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

test.describe("organization API keys", () => {
  let owner: ApiAccount;
  const agents: ChildProcess[] = [];
  const dirs: string[] = [];

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "automation");
  });
  test.afterAll(async () => {
    for (const a of agents) a.kill("SIGTERM");
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await owner?.api.dispose();
  });

  test("a script enrolls 50 nodes with a key; real agents' samples arrive through the API", async ({ baseURL }) => {
    test.setTimeout(240_000);
    const org = owner.organization.id;
    const { key } = await createOrgApiKey(owner, "write", "enroll script");
    const work = mkdtempSync(join(tmpdir(), "rpcpulse-enroll-"));
    dirs.push(work);
    const out = join(work, "enrolled.json");
    const started = Date.now();
    const common = { app: baseURL!, org, "api-family": "hive", client: "hived", "rpc-url": SIMNET_HIVE_URL };
    const script = await enrollScript(
      { ...common, count: "50", network: "hive", "name-prefix": "fleet", concurrency: "8", out },
      key,
    );
    expect(script.code, script.stderr).toBe(0);
    expect(script.stderr).toContain("enrolled 50/50, failed 0");
    console.log(`enroll-nodes: 50 nodes in ${Date.now() - started} ms`);
    const enrolled = JSON.parse(readFileSync(out, "utf8")) as Enrolled[];
    expect(enrolled).toHaveLength(50);
    expect(new Set(enrolled.map((e) => e.nodeId)).size).toBe(50);

    const api = await keyClient(baseURL!, key);
    const listed = (await (await api.get(`/api/orgs/${org}/nodes`)).json()) as { nodes: Array<{ id: string }> };
    expect(listed.nodes).toHaveLength(50);

    // A bad run says why: an unknown network is the API's problem detail, exit 1.
    const bad = await enrollScript({ ...common, count: "1", network: "nope", "name-prefix": "bad" }, key);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad-001: HTTP 400/);

    // Real agents for three of them.
    for (const node of enrolled.slice(0, 3)) {
      const stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-keys-agent-"));
      dirs.push(stateDir);
      agents.push(startAgent(node, stateDir));
    }
    for (const node of enrolled.slice(0, 3)) {
      await expect
        .poll(
          async () => {
            const res = await api.get(`/api/orgs/${org}/nodes/${node.nodeId}/metrics?range=1h`);
            const body = (await res.json()) as {
              node: { lastSeenAt: string | null; headBlock: number | null };
              time: number[];
            };
            return body.node.lastSeenAt !== null && body.node.headBlock !== null && body.time.length > 0;
          },
          { timeout: 90_000, message: `samples of ${node.name}` },
        )
        .toBe(true);
    }
    // A node without an agent has none.
    const idle = (await (await api.get(`/api/orgs/${org}/nodes/${enrolled[9]!.nodeId}/metrics`)).json()) as {
      node: { lastSeenAt: string | null };
    };
    expect(idle.node.lastSeenAt).toBeNull();

    // Rename and move (network) through PATCH; rotate the token; delete one node.
    const target = enrolled[10]!;
    const renamed = await api.patch(`/api/orgs/${org}/nodes/${target.nodeId}`, {
      data: { name: "renamed-by-key", network: "steem" },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
    expect(((await renamed.json()) as { node: { name: string; networkSlug: string } }).node).toMatchObject({
      name: "renamed-by-key",
      networkSlug: "steem",
    });
    const clash = await api.patch(`/api/orgs/${org}/nodes/${target.nodeId}`, { data: { name: enrolled[11]!.name } });
    expect(clash.status()).toBe(409);
    expect(clash.headers()["content-type"]).toContain("application/problem+json");
    expect(await clash.json()).toMatchObject({
      status: 409,
      code: "CONFLICT",
      title: "Conflict",
      error: { code: "CONFLICT" },
    });
    const rotated = await api.post(`/api/orgs/${org}/nodes/${target.nodeId}/agent-tokens/rotate`, {
      data: { overlapSeconds: 0 },
    });
    expect(rotated.status()).toBe(201);
    expect(((await rotated.json()) as { token: string }).token).toMatch(/^rpa_/);
    const tokens = (await (await api.get(`/api/orgs/${org}/nodes/${target.nodeId}/agent-tokens`)).json()) as {
      tokens: Array<{ id: string; expiresAt: string | null }>;
    };
    expect(tokens.tokens).toHaveLength(2);
    expect((await api.delete(`/api/orgs/${org}/nodes/${enrolled[12]!.nodeId}`)).status()).toBe(200);
    expect((await api.get(`/api/orgs/${org}/nodes/${enrolled[12]!.nodeId}`)).status()).toBe(404);

    // The OpenAPI document is served and names the routes used here.
    const doc = (await (await api.get("/api/orgs/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/api/orgs/{orgId}/nodes/{nodeId}/agent-tokens/rotate");

    // Keys are managed by the session only; a revoked key is refused at once (401 problem).
    expect((await api.get(`/api/orgs/${org}/api-keys`)).status()).toBe(403);
    const keys = (await (await owner.api.get(`/api/orgs/${org}/api-keys`)).json()) as {
      apiKeys: Array<{ id: string; name: string; lastUsedAt: string | null }>;
    };
    const mine = keys.apiKeys.find((k) => k.name === "enroll script")!;
    expect(mine.lastUsedAt).not.toBeNull();
    expect((await owner.api.delete(`/api/orgs/${org}/api-keys/${mine.id}`)).status()).toBe(200);
    const refused = await api.get(`/api/orgs/${org}/nodes`);
    expect(refused.status()).toBe(401);
    expect(refused.headers()["content-type"]).toContain("application/problem+json");
    await api.dispose();
  });
  test("settings page: create a key shown once, list it, use it, revoke it", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    await page.goto(`/app/o/${owner.organization.slug}/settings`);
    await page.getByLabel("Name", { exact: true }).fill("ui key");
    await page.getByLabel("Scope").selectOption("read");
    await page.getByLabel("Expires").selectOption("30");
    await page.getByRole("button", { name: "Create API key" }).click();
    const key = await page.getByTestId("api-key-secret").inputValue();
    expect(key).toMatch(/^rpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const row = page.getByTestId("api-keys").getByRole("row", { name: /ui key/ });
    await expect(row).toContainText(key.slice(0, 20));
    await expect(row).toContainText("read");
    const api = await keyClient(baseURL!, key);
    expect((await api.get(`/api/orgs/${owner.organization.id}/nodes`)).status()).toBe(200);
    // Shown once: not in the page after a reload.
    await page.reload();
    expect(await page.content()).not.toContain(key);
    await page.getByRole("button", { name: "Revoke ui key" }).click();
    await expect(page.getByTestId("api-keys").getByRole("row", { name: /ui key/ })).toContainText("revoked");
    expect((await api.get(`/api/orgs/${owner.organization.id}/nodes`)).status()).toBe(401);
    await api.dispose();
    await context.close();
  });
});
