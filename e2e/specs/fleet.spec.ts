import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The operator journey with the real pieces: enroll a node in the browser, take the token and the
 * ingest URL from the install command shown once, run the bundled agent (apps/agent/dist) against a
 * simnet Hive node, and watch the node page turn "connected" and draw charts.
 * Needs, besides the web app: simnet (packages/simnet/demo.json: hive-api on :18091), the ingest
 * API at the web's INGEST_PUBLIC_URL, and the worker consuming the ingest queue.
 */
const SIMNET_HIVE_URL = process.env.E2E_SIMNET_HIVE_URL ?? "http://127.0.0.1:18091";
const AGENT = resolve(import.meta.dirname, "../../apps/agent/dist/rpcpulse-agent.mjs");

test.describe("fleet", () => {
  let owner: ApiAccount;
  let stranger: ApiAccount;
  let agent: ChildProcess | undefined;
  let stateDir: string | undefined;

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "fleet");
    stranger = await createApiAccount(baseURL!, "stranger");
  });

  test.afterAll(async () => {
    agent?.kill("SIGTERM");
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    await owner?.api.dispose();
    await stranger?.api.dispose();
  });

  test("enroll a node, run the agent, see it connected with charts; other orgs get 404", async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    const slug = owner.organization.slug;

    await page.goto(`/app/o/${slug}`);
    await expect(page.getByText("No nodes yet")).toBeVisible();
    await page.getByRole("link", { name: "Add your first node" }).click();
    // The fleet page's producer forms have Network fields too: act only once the add-node page is shown.
    await page.waitForURL(`**/app/o/${slug}/nodes/new`);

    await page.getByLabel("Network").selectOption("hive");
    await expect(page.getByLabel("API family")).toHaveValue("hive");
    await page.getByLabel("Name", { exact: true }).fill("hive-e2e");
    await page.getByLabel("Client", { exact: true }).fill("hived");
    await page.getByLabel("Client version (optional)").fill("1.27.11");
    await page.getByLabel("Local RPC URL").fill(SIMNET_HIVE_URL);
    await page.getByRole("button", { name: "Enroll node" }).click();

    const token = await page.getByTestId("agent-token").inputValue();
    expect(token).toMatch(/^rpa_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const install = await page.getByTestId("install-command").inputValue();
    expect(install).toContain(token);
    expect(install).toMatch(/^curl -fsSL '[^']+\/install\.sh' \| sudo sh -s -- --token 'rpa_/);
    // The installer the line pipes into sh is served by the app (with the app's URL as its download base).
    const script = await page.request.get(/'([^']+\/install\.sh)'/.exec(install)![1]!);
    expect(script.status()).toBe(200);
    expect(await script.text()).toContain("SHA256SUMS");
    const config = JSON.parse(/'(\{.*\})'/.exec(install)![1]!) as {
      ingestUrl: string;
      nodeId: string;
      family: string;
      rpcUrl: string;
    };
    expect(config).toMatchObject({ family: "hive", rpcUrl: SIMNET_HIVE_URL });

    await page.getByRole("link", { name: "Go to hive-e2e" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/o/${slug}/nodes/${config.nodeId}$`));
    await expect(page.getByTestId("node-status")).toContainText("Waiting for first batch");

    // The token is not shown again anywhere.
    await page.reload();
    expect(await page.content()).not.toContain(token);

    // Run the real agent with what the install command says.
    stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-e2e-agent-"));
    agent = spawn(
      process.execPath,
      [
        AGENT,
        "run",
        "--family",
        config.family,
        "--rpc-url",
        config.rpcUrl,
        "--ingest-url",
        config.ingestUrl,
        "--node-id",
        config.nodeId,
        "--interval",
        "2s",
        "--state-dir",
        stateDir,
      ],
      {
        env: { PATH: process.env.PATH, RPCPULSE_TOKEN: token, RPCPULSE_LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );

    // The page polls by itself: no reload.
    await expect(page.getByTestId("node-status")).toContainText(/Connected/, { timeout: 60_000 });
    await expect(page.locator(".chart .uplot").first()).toBeVisible({ timeout: 30_000 });
    const tcpChart = page.getByRole("figure", { name: "TCP connections by state (stacked)" });
    await expect(tcpChart.locator(".u-legend")).toContainText("ESTABLISHED");
    await expect(page.getByRole("figure", { name: "RPC latency phases" }).locator("canvas")).toBeVisible();

    // Fleet overview lists it as up with a last-seen time.
    await page.goto(`/app/o/${slug}`);
    const row = page.getByTestId("fleet-table").getByRole("row", { name: /hive-e2e/ });
    await expect(row).toContainText(/up|lagging/);
    await expect(row).toContainText("hived 1.27.11");

    // Another organization's member: the node page, its metrics route and the enroll page are 404.
    const nodePath = `/app/o/${slug}/nodes/${config.nodeId}`;
    for (const path of [
      nodePath,
      `${nodePath}/metrics?range=1h`,
      `/app/o/${slug}/nodes/new`,
      `/app/o/${stranger.organization.slug}/nodes/${config.nodeId}`,
      `/app/o/${stranger.organization.slug}/nodes/${config.nodeId}/metrics`,
    ]) {
      const status = (await stranger.api.get(path, { maxRedirects: 0 })).status();
      expect([403, 404], `${path} answered ${status}`).toContain(status);
    }
    // The owner's metrics route answers JSON.
    const own = await owner.api.get(`${nodePath}/metrics?range=24h`);
    expect(own.status()).toBe(200);
    expect(((await own.json()) as { range: string }).range).toBe("24h");
    await context.close();
  });
});
