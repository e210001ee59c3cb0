import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The Ethereum consensus client beside a node, with the real pieces: the e2e stack's simnet
 * (packages/simnet/demo.json) runs eth-stalled (Nethermind on :18546) with a stuck Teku beside it
 * (Beacon API on :18553, `stalled: true`: its head stopped, the execution node stands still with it).
 * A node enrolled through the API, the bundled agent with --beacon-url: the node page's consensus client
 * panel shows it behind and driving this node, and the fleet table flags it under the execution client.
 */
const ETH_RPC = "http://127.0.0.1:18546";
const BEACON = "http://127.0.0.1:18553";
const AGENT = resolve(import.meta.dirname, "../../apps/agent/dist/rpcpulse-agent.mjs");

test.describe("consensus client", () => {
  let owner: ApiAccount;
  let agent: ChildProcess | undefined;
  let stateDir: string | undefined;

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "consensus");
  });

  test.afterAll(async () => {
    agent?.kill("SIGTERM");
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    await owner?.api.dispose();
  });

  test("a stuck beacon node: the node page panel and the fleet table show it", async ({ browser }) => {
    test.setTimeout(240_000);
    const { slug, id: orgId } = owner.organization;
    const created = await owner.api.post(`/api/orgs/${orgId}/nodes`, {
      data: {
        name: "eth-cl-e2e",
        network: "ethereum-mainnet",
        apiFamily: "ethereum",
        clientName: "nethermind",
        localRpcUrl: ETH_RPC,
      },
    });
    expect(created.status()).toBe(201);
    const body = (await created.json()) as { node: { id: string }; agentToken: { token: string }; ingestUrl: string };

    stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-e2e-cl-"));
    agent = spawn(
      process.execPath,
      [
        AGENT,
        "run",
        "--family",
        "ethereum",
        "--rpc-url",
        ETH_RPC,
        "--beacon-url",
        BEACON,
        "--ingest-url",
        body.ingestUrl,
        "--node-id",
        body.node.id,
        "--interval",
        "2s",
        "--state-dir",
        stateDir,
      ],
      {
        env: { PATH: process.env.PATH, RPCPULSE_TOKEN: body.agentToken.token, RPCPULSE_LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );

    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    const panel = page.getByTestId("consensus-client");
    await expect(async () => {
      await page.goto(`/app/o/${slug}/nodes/${body.node.id}`);
      await expect(panel).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    await expect(panel.getByTestId("cl-version")).toHaveText("teku v25.6.0");
    await expect(panel.getByTestId("cl-behind")).toContainText(/\d+ slots/);
    // Teku stopped when simnet started: it is 4 slots (48 s) behind soon after; the page renders on load.
    await expect(async () => {
      await page.reload();
      await expect(panel.locator("[data-health]")).toHaveAttribute("data-health", /behind|failing/, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 120_000 });
    await expect(panel).toContainText("Consensus client behind");
    // Its head's execution block is this node's head: it is the one driving this node.
    await expect(async () => {
      await page.reload();
      await expect(panel.getByTestId("cl-own-el")).toHaveAttribute("data-state", "consistent", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(panel.getByRole("figure", { name: /Consensus client: slots behind/ })).toBeVisible();

    await page.goto(`/app/o/${slug}`);
    const line = page.getByTestId("fleet-cl");
    await expect(line).toContainText("CL teku:");
    await expect(line).toContainText(/⚠ \d+ slots/);
    await context.close();

    // A public status page lists the consensus client beside the node: its version and how far behind.
    const statusSlug = `cl-${slug}`.slice(0, 60);
    const sp = await owner.api.post(`/api/orgs/${orgId}/status-pages`, {
      data: { slug: statusSlug, title: "Our consensus client", isPublic: true },
    });
    expect(sp.status()).toBe(201);
    const { id: pageId } = (await sp.json()) as { id: string };
    const component = await owner.api.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
      data: { ref: `consensus_client:${body.node.id}` },
    });
    expect(component.status()).toBe(201);
    const visitor = await browser.newContext();
    const pub = await visitor.newPage();
    await pub.goto(`/status/${statusSlug}`);
    await expect(pub.getByTestId("consensus-facts")).toContainText(/slots behind · teku v25\.6\.0/);
    await pub.screenshot({ path: test.info().outputPath("consensus-status-page.png"), fullPage: true });
    await visitor.close();
  });
});
