import { spawn, type ChildProcessWithoutNullStreams, type ChildProcess } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The status-page and alerting journey with the real pieces: a simnet Hive node watched by the
 * real agent, a head-age rule made in the alerts page, a signed webhook channel to a receiver in
 * this process (it verifies the HMAC the way README "Alerting" says), and a public status page
 * listing the node. The node stalls (simnet's setStalled knob): the alert fires, the incident
 * appears on the status page above its uptime bars; it recovers: the incident resolves.
 * Needs the worker to evaluate alerts often (scripts/e2e.sh sets ALERT_EVALUATE_INTERVAL_MS) and
 * NOTIFY_ALLOW_PRIVATE=true (the receiver is on loopback).
 */
const ROOT = resolve(import.meta.dirname, "../..");
const AGENT = join(ROOT, "apps/agent/dist/rpcpulse-agent.mjs");
const TSX = join(ROOT, "node_modules/.bin/tsx");

interface Received {
  body: string;
  signature: string;
}

function verify(secret: string, header: string, body: string, toleranceSec = 300): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > toleranceSec || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const got = Buffer.from(parts.v1, "hex");
  return got.length === expected.length && timingSafeEqual(got, expected);
}

test.describe("status pages and alerting", () => {
  let owner: ApiAccount;
  let simnet: ChildProcessWithoutNullStreams | undefined;
  let agent: ChildProcess | undefined;
  let stateDir: string | undefined;
  let receiver: http.Server | undefined;
  const received: Received[] = [];

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "alerting");
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          body: Buffer.concat(chunks).toString("utf8"),
          signature: String(req.headers["x-rpcpulse-signature"] ?? ""),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", () => r()));
  });

  test.afterAll(async () => {
    // Let the agent finish its last write before its state directory goes.
    if (agent && agent.exitCode === null) {
      const exited = new Promise((r) => agent!.once("exit", r));
      agent.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    }
    simnet?.kill("SIGTERM");
    receiver?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    await owner?.api.dispose();
  });

  test("a stalled node fires its alert, opens an incident on the status page, and resolves", async ({ browser }) => {
    test.setTimeout(300_000);
    const slug = owner.organization.slug;
    const orgId = owner.organization.id;

    // 1. A simnet Hive node we can stall at run time.
    simnet = spawn(TSX, [join(ROOT, "e2e/fixtures/stallable-node.ts")], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: simnet.stdout });
    const replies: string[] = [];
    const firstLine = new Promise<string>((r) => lines.once("line", r));
    const { url: rpcUrl } = JSON.parse(await firstLine) as { url: string };
    lines.on("line", (l) => replies.push(l));
    const command = async (c: "stall" | "resume") => {
      simnet!.stdin.write(`${c}\n`);
      await expect.poll(() => replies.some((r) => r.startsWith(`ok ${c}`))).toBe(true);
    };

    // 2. Enroll it in the browser and run the real agent with the token shown once.
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    await page.goto(`/app/o/${slug}/nodes/new`);
    await page.getByLabel("Network").selectOption("hive");
    await page.getByLabel("Name", { exact: true }).fill("hive-stall");
    await page.getByLabel("Client", { exact: true }).fill("hived");
    await page.getByLabel("Local RPC URL").fill(rpcUrl);
    await page.getByRole("button", { name: "Enroll node" }).click();
    const token = await page.getByTestId("agent-token").inputValue();
    const install = await page.getByTestId("install-command").inputValue();
    const config = JSON.parse(/'(\{.*\})'/.exec(install)![1]!) as { ingestUrl: string; nodeId: string };
    stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-e2e-stall-"));
    agent = spawn(
      process.execPath,
      [
        AGENT,
        "run",
        "--family",
        "hive",
        "--rpc-url",
        rpcUrl,
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

    // 3. A public status page listing the node (the status-pages API).
    const statusSlug = `st-${slug}`.slice(0, 60);
    const created = await owner.api.post(`/api/orgs/${orgId}/status-pages`, {
      data: { slug: statusSlug, title: "Stall test status", isPublic: true },
    });
    expect(created.status()).toBe(201);
    const { id: pageId } = (await created.json()) as { id: string };
    const component = await owner.api.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
      data: { ref: `node:${config.nodeId}`, displayName: "Hive RPC" },
    });
    expect(component.status()).toBe(201);

    // 4. A signed webhook channel, made in the alerts page; its secret is shown once. Test it.
    const receiverUrl = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/hook`;
    await page.goto(`/app/o/${slug}/alerts`);
    await expect(page.getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
    const channelForm = page.getByTestId("channel-form");
    await channelForm.getByLabel("Name").fill("e2e hook");
    await channelForm.getByLabel("Type").selectOption("webhook");
    await channelForm.getByLabel("URL").fill(receiverUrl);
    await channelForm.getByRole("button", { name: "Add channel" }).click();
    const secret = await page.getByTestId("signing-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await page.getByTestId("test-e2e hook").getByRole("button", { name: "Test" }).click();
    await expect(page.getByTestId("test-e2e hook")).toContainText("Test queued");
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(verify(secret, received[0]!.signature, received[0]!.body)).toBe(true);
    expect(
      verify(secret, received[0]!.signature, received[0]!.body.replace("TEST", "FAKE").replace("test", "fake")),
    ).toBe(false);

    // 5. The rule, through the form: head age above 12 s for 4 s, resolve after 4 s.
    await page.reload();
    const form = page.getByTestId("rule-form");
    await form.getByLabel("Name", { exact: true }).fill("Stalled head");
    await form.getByLabel("Type", { exact: true }).selectOption("head_age");
    await form.getByLabel("Target", { exact: true }).selectOption(`node:${config.nodeId}`);
    await form.getByLabel(/^Fire at/).fill("12");
    await form.getByLabel(/^Degraded from/).fill("");
    await form.getByLabel("Fire after (s)").fill("4");
    await form.getByLabel("Resolve after (s)").fill("4");
    await form.getByLabel("e2e hook").check();
    await form.getByRole("button", { name: "Create rule" }).click();
    await expect(form).toContainText("Rule created.");
    await page.reload();
    await expect(page.getByTestId("rules")).toContainText("Stalled head");

    // Healthy first: the agent reports and nothing fires.
    await expect
      .poll(
        async () =>
          (await (await owner.api.get(`/api/orgs/${orgId}/nodes`)).json()) as {
            nodes: { lastSeenAt: string | null }[];
          },
        {
          timeout: 60_000,
        },
      )
      .toMatchObject({ nodes: [expect.objectContaining({ lastSeenAt: expect.any(String) })] });
    await expect(page.getByTestId("no-active")).toBeVisible();

    // 6. The node stalls: the alert fires and is delivered, signed.
    await command("stall");
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await page.getByTestId("tile-firing").textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [2_000] },
      )
      .toMatch(/^1\s*firing/);
    await expect(page.getByTestId("active-alerts")).toContainText(
      /hive-stall.*Stalled head.*head block \d+ seconds? old/s,
    );
    await expect
      .poll(() => received.filter((r) => JSON.parse(r.body).kind === "firing").length, { timeout: 30_000 })
      .toBe(1);
    const firing = received.find((r) => JSON.parse(r.body).kind === "firing")!;
    expect(verify(secret, firing.signature, firing.body)).toBe(true);
    expect((JSON.parse(firing.body) as { title: string }).title).toMatch(/^hive-stall: head block .* old/);
    await expect(page.getByTestId("delivery-log")).toContainText("sent");
    await page.screenshot({ path: test.info().outputPath("alerts-firing.png"), fullPage: true });

    // 7. The incident is on the public status page, with the uptime bars.
    const statusPage = await browser.newPage();
    await expect
      .poll(
        async () => {
          await statusPage.goto(`/status/${statusSlug}`);
          return (await statusPage.locator("body").textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [3_000] },
      )
      .toContain("Active incidents");
    await expect(statusPage.getByRole("heading", { name: "Active incidents" })).toBeVisible();
    await expect(statusPage.locator("body")).toContainText(/Hive RPC: head block .* old/);
    // The public incident uses the page's display name, never the node's own name.
    await expect(statusPage.locator("body")).not.toContainText("hive-stall");
    await expect(statusPage.getByRole("group", { name: /uptime over the last 90 days/ }).first()).toBeVisible();
    await statusPage.screenshot({ path: test.info().outputPath("status-incident.png"), fullPage: true });

    // 8. It recovers: resolved notification, the incident moves to the past.
    await command("resume");
    await expect
      .poll(() => received.filter((r) => JSON.parse(r.body).kind === "resolved").length, { timeout: 90_000 })
      .toBe(1);
    await expect
      .poll(
        async () => {
          await statusPage.goto(`/status/${statusSlug}`);
          return (await statusPage.locator("body").textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [3_000] },
      )
      .not.toContain("Active incidents");
    await expect(statusPage.locator("body")).toContainText(/Hive RPC: head block .* old/);
    // The public incident uses the page's display name, never the node's own name.
    await expect(statusPage.locator("body")).not.toContainText("hive-stall");
    await page.reload();
    await expect(page.getByTestId("no-active")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("alerts-resolved.png"), fullPage: true });
    await statusPage.screenshot({ path: test.info().outputPath("status-resolved.png"), fullPage: true });
    await context.close();
  });
});
