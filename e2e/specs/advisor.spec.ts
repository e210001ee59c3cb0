import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The tuning advisor with the real pieces: a node enrolled in the browser, the bundled agent reading
 * this host's sockets, and a real connection flood from one address (scripts/demo-flood.ts) against
 * the simnet Hive node. The worker's advisor sweep opens the flood suggestion; the operator
 * marks it applied; the flood stops; the sweep compares before and after and shows "Helped".
 * scripts/e2e.sh runs the worker with short advisor windows (ADVISOR_* variables).
 */
const SIMNET_HIVE_URL = process.env.E2E_SIMNET_HIVE_URL ?? "http://127.0.0.1:18091";
const ROOT = resolve(import.meta.dirname, "../..");
const AGENT = join(ROOT, "apps/agent/dist/rpcpulse-agent.mjs");
/**
 * The advisor reads loopback sources (127.0.0.0/8) as a local proxy and proposes no per-IP limits
 * for them, so the flood comes from one of this host's own non-loopback IPv4 addresses (still aimed
 * at 127.0.0.1: the traffic never leaves the host).
 */
const FLOOD_FROM =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === "IPv4" && !a.internal)?.address ?? "";
/** ADVISOR_VERIFY_WINDOW_MINUTES in scripts/e2e.sh, in ms: flood data must cover the "before" window. */
const VERIFY_WINDOW_MS = 60_000;

async function reloadUntil(page: Page, what: () => Promise<boolean>, timeoutMs: number, label: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await what()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await page.waitForTimeout(3_000);
    await page.reload();
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
}

test.describe("tuning advisor", () => {
  let owner: ApiAccount;
  let agent: ChildProcess | undefined;
  let flood: ChildProcess | undefined;
  let stateDir: string | undefined;

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "advisor");
  });

  test.afterAll(async () => {
    // Wait for both to exit: the agent may still be writing its spool when asked to stop.
    await Promise.all([stop(flood), stop(agent)]);
    if (stateDir) rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    await owner?.api.dispose();
  });

  test("a flood opens a suggestion; the operator applies it and the verified effect shows", async ({
    browser,
  }, testInfo) => {
    test.skip(!FLOOD_FROM, "needs a non-loopback IPv4 address on this host for the flood's source");
    test.setTimeout(360_000);
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    const slug = owner.organization.slug;

    // Enroll the node in the browser and take the token from the install command.
    await page.goto(`/app/o/${slug}/nodes/new`);
    await page.getByLabel("Network").selectOption("hive");
    await page.getByLabel("Name", { exact: true }).fill("hive-flooded");
    await page.getByLabel("Client", { exact: true }).fill("hived");
    await page.getByLabel("Local RPC URL").fill(SIMNET_HIVE_URL);
    await page.getByRole("button", { name: "Enroll node" }).click();
    const token = await page.getByTestId("agent-token").inputValue();
    const install = await page.getByTestId("install-command").inputValue();
    const config = JSON.parse(/'(\{.*\})'/.exec(install)![1]!) as { ingestUrl: string; nodeId: string };

    // The agent counts per-IP connections on the node's public port.
    stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-e2e-advisor-"));
    const port = new URL(SIMNET_HIVE_URL).port;
    agent = spawn(
      process.execPath,
      [
        AGENT,
        "run",
        "--family",
        "hive",
        "--rpc-url",
        SIMNET_HIVE_URL,
        "--ingest-url",
        config.ingestUrl,
        "--node-id",
        config.nodeId,
        "--interval",
        "2s",
        "--ports",
        port,
        "--state-dir",
        stateDir,
      ],
      {
        env: { PATH: process.env.PATH, RPCPULSE_TOKEN: token, RPCPULSE_LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    // Real traffic: 120 keep-alive connections from one address of this host.
    flood = spawn(
      join(ROOT, "node_modules/.bin/tsx"),
      [
        join(ROOT, "scripts/demo-flood.ts"),
        "--port",
        port,
        "--from",
        FLOOD_FROM,
        "--connections",
        "120",
        "--every",
        "1000",
        "--minutes",
        "10",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    const floodStarted = Date.now();

    // The advisor page lists the flood suggestion with its evidence.
    await page.goto(`/app/o/${slug}/advisor`);
    const card = page.locator('[data-testid="suggestion"][data-rule="connection-flood"]');
    await reloadUntil(page, () => card.isVisible(), 120_000, "the flood suggestion");
    await expect(card.locator("summary")).toContainText(FLOOD_FROM);
    await expect(card.getByTestId("suggestion-state")).toHaveText("Open");
    if ((await card.getAttribute("open")) === null) await card.locator("summary").click();
    await expect(card.getByRole("heading", { name: "Evidence" })).toBeVisible();
    await expect(card.locator(".evidence li").first()).toContainText(`Connections from ${FLOOD_FROM}`);
    await expect(card.getByRole("figure", { name: `Connections from ${FLOOD_FROM}` })).toBeVisible();
    await expect(card.getByRole("heading", { name: "Arithmetic" })).toBeVisible();
    await expect(card.locator(".snippet pre").first()).toContainText("limit_conn");
    await expect(card.getByRole("button", { name: /^Copy snippet/ }).first()).toBeVisible();
    await expect(card.getByRole("heading", { name: "Sources" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("advisor-page.png"), fullPage: true });

    // The export is a commented script that bash accepts and that says it changes nothing by itself.
    const exported = await owner.api.get(`/app/o/${slug}/advisor/export`);
    expect(exported.status()).toBe(200);
    expect(exported.headers()["content-disposition"]).toContain("attachment");
    const script = await exported.text();
    expect(script).toContain("RPC Pulse never changes a node by itself");
    const scriptFile = testInfo.outputPath("advice.sh");
    writeFileSync(scriptFile, script);
    execFileSync("bash", ["-n", scriptFile]);
    expect(readFileSync(scriptFile, "utf8")).toContain("<<'RPCPULSE_EOF'");

    // Apply once the flood has covered a whole "before" window, then stop the flood.
    const wait = VERIFY_WINDOW_MS + 10_000 - (Date.now() - floodStarted);
    if (wait > 0) await page.waitForTimeout(wait);
    await page.reload();
    if ((await card.getAttribute("open")) === null) await card.locator("summary").click();
    await card.getByRole("button", { name: /^Mark applied/ }).click();
    await expect(card.getByTestId("suggestion-state")).toHaveText("Applied");
    flood.kill("SIGTERM");

    // On the node page, the verification shows the before/after chart and the verdict.
    await page.goto(`/app/o/${slug}/nodes/${config.nodeId}`);
    const section = page.getByTestId("node-advisor");
    const flooded = section.locator('[data-testid="suggestion"][data-rule="connection-flood"]');
    await reloadUntil(
      page,
      async () => (await flooded.getByTestId("suggestion-state").textContent()) === "Verified",
      150_000,
      "the verified state",
    );
    const verdict = flooded.getByTestId("verdict");
    await expect(verdict).toContainText("Helped");
    await expect(verdict).toContainText("95 % interval of the shift");
    await expect(flooded.getByRole("figure", { name: /before and after the change/ })).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: testInfo.outputPath("node-advisor.png") });
    await context.close();
  });
});
