import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, uniqueSuffix, type ApiAccount } from "../fixtures/api-account.js";
import { apiJson, enrollNodeInUi } from "../fixtures/status-fixtures.js";

/**
 * Status pages end to end: an operator enrolls a node (the real agent reports from simnet), builds
 * a status page in the admin UI, declares an incident in Markdown, and the public page — no
 * session — shows the component's state, 90 uptime bars with per-day tooltips, the incident
 * (sanitized), feeds, the JSON summary and badges. Screenshots of both pages land in test-results.
 */
const SIMNET_HIVE_URL = process.env.E2E_SIMNET_HIVE_URL ?? "http://127.0.0.1:18091";
const AGENT = resolve(import.meta.dirname, "../../apps/agent/dist/rpcpulse-agent.mjs");

test.describe("status pages", () => {
  let owner: ApiAccount;
  let agent: ChildProcess | undefined;
  let stateDir: string | undefined;

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "status");
  });

  test.afterAll(async () => {
    agent?.kill("SIGTERM");
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    await owner?.api.dispose();
  });

  test("operator builds a page; the public page shows states, uptime bars, incidents, feeds and badges", async ({
    browser,
    playwright,
    baseURL,
  }, testInfo) => {
    test.setTimeout(180_000);
    const sfx = uniqueSuffix();
    const nodeName = `status-hive-${sfx}`;
    const enrolled = await enrollNodeInUi(browser, owner, { name: nodeName, localRpcUrl: SIMNET_HIVE_URL });
    stateDir = mkdtempSync(join(tmpdir(), "rpcpulse-e2e-status-"));
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
        enrolled.ingestUrl,
        "--node-id",
        enrolled.nodeId,
        "--interval",
        "2s",
        "--state-dir",
        stateDir,
      ],
      {
        env: { PATH: process.env.PATH, RPCPULSE_TOKEN: enrolled.token, RPCPULSE_LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "inherit"],
      },
    );

    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    const org = owner.organization.slug;
    await page.goto(`/app/o/${org}`);
    await page.getByRole("link", { name: "Status pages" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/o/${org}/status-pages$`));
    await expect(page.getByText("No status page yet.")).toBeVisible();

    const slug = `e2e-${sfx}`;
    const form = page.getByTestId("create-status-page");
    await form.getByLabel("Title").fill(`Hive witnesses ${sfx}`);
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Description (optional)").fill("Our witness and seed nodes.");
    await form.getByRole("button", { name: "Create page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Hive witnesses ${sfx}` })).toBeVisible();

    await page.getByLabel("Group name").fill("Witnesses");
    await page.getByRole("button", { name: "Add group" }).click();
    await expect(page.locator("#f-group option", { hasText: "Witnesses" })).toHaveCount(1);

    const add = page.getByTestId("add-component");
    await add.getByLabel("Node or endpoint").selectOption({ label: `${nodeName} (Hive)` });
    await add.getByLabel("Display name (optional)").fill("Witness node");
    await add.getByLabel("Group").selectOption({ label: "Witnesses" });
    await add.getByRole("button", { name: "Add component" }).click();
    await expect(page.getByTestId("admin-component")).toHaveCount(1);
    await expect(page.getByTestId("admin-component")).toContainText("Witness node");

    await page.getByText("Declare an incident").click();
    const incident = page.getByTestId("create-incident");
    await incident.getByLabel("Title").fill(`Slow responses ${sfx}`);
    await incident
      .getByLabel("Message (Markdown)")
      .fill("We see **high latency**.\n<script>window.__xss = 1</script>\n[details](javascript:alert(1))");
    await incident.getByLabel("Witness node").check();
    await incident.getByRole("button", { name: "Publish incident" }).click();
    await expect(page.getByTestId("admin-incident")).toContainText(`Slow responses ${sfx}`);
    await page.screenshot({ path: testInfo.outputPath("status-admin.png"), fullPage: true });

    // The public page, without a session.
    const publicContext = await browser.newContext();
    const pub = await publicContext.newPage();
    const consoleErrors: string[] = [];
    pub.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    // Served from the page response cache (rendered once, the visitor's CSP nonce put in).
    const first = await pub.goto(`/status/${slug}`);
    expect(first?.headers()["x-status-page-cache"]).toMatch(/^(hit|miss|stale)$/);
    await expect(pub.getByRole("heading", { level: 1, name: `Hive witnesses ${sfx}` })).toBeVisible();
    const component = pub.locator("[data-component]");
    await expect(component).toHaveCount(1);
    await expect(component).toContainText("Witness node");
    // The agent reports every 2 s; the snapshot is cached up to 30 s.
    await expect(async () => {
      await pub.reload();
      await expect(pub.locator("[data-component] .sp-pill")).toHaveText("Operational", { timeout: 1_000 });
    }).toPass({ timeout: 90_000, intervals: [3_000] });
    // 90 daily bars (one stroke each), today's marked with the incident; the day tooltip is the
    // page's one client component, for the pointer and for the keyboard.
    const bars = component.locator(".sp-bars-box");
    expect(((await bars.getAttribute("data-u")) ?? "").split(",")).toHaveLength(90);
    await expect(bars.locator("path.inc")).toHaveCount(1);
    const box = (await bars.boundingBox())!;
    await pub.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    const tip = pub.getByRole("tooltip");
    await expect(tip).toBeVisible();
    // Today's minutes count once the worker has rolled them up: a percentage, or "no data" just before.
    await expect(tip).toContainText(new Date().toISOString().slice(0, 10));
    await expect(tip).toContainText(/uptime|no data/);
    await expect(tip).toContainText(`incident: Slow responses ${sfx}`);
    await pub.mouse.move(0, 0);
    await bars.focus();
    await pub.keyboard.press("ArrowLeft");
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await expect(tip).toContainText(yesterday);
    await expect(tip).not.toContainText("incident:");
    await pub.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    expect(consoleErrors, "no CSP violations or hydration errors").toEqual([]);
    await expect(pub.getByRole("heading", { name: "Active incidents" })).toBeVisible();
    await expect(pub.getByRole("status").first()).toHaveText("Degraded performance");
    await expect(pub.locator(".sp-md strong")).toHaveText("high latency");
    expect(await pub.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await expect(pub.locator('a[href^="javascript:"]')).toHaveCount(0);
    await expect(pub.getByRole("figure").first()).toBeVisible();
    await pub.screenshot({ path: testInfo.outputPath("status-public.png"), fullPage: true });

    // Feeds, JSON and badges.
    const anon = await playwright.request.newContext({ baseURL });
    const rss = await anon.get(`/status/${slug}/rss`);
    expect(rss.headers()["content-type"]).toContain("application/rss+xml");
    expect(await rss.text()).toContain(`Slow responses ${sfx}`);
    const atom = await anon.get(`/status/${slug}/atom`);
    expect(atom.headers()["content-type"]).toContain("application/atom+xml");
    expect(await atom.text()).toMatch(/^<\?xml[\s\S]*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    const feed = (await (await anon.get(`/status/${slug}/feed.json`)).json()) as {
      version: string;
      items: { title: string }[];
    };
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.items[0]?.title).toContain(`Slow responses ${sfx}`);
    const summary = (await (await anon.get(`/status/${slug}/summary.json`)).json()) as {
      components: { id: string; name: string; status: string }[];
    };
    expect(summary.components).toEqual([expect.objectContaining({ name: "Witness node", status: "operational" })]);
    // The page's state (banner and page badge) has the open minor incident as its floor, like the
    // component's own state stays "operational" in summary.json: the page never says "all operational"
    // while an incident is open.
    const badge = await anon.get(`/status/${slug}/badge/page.svg`);
    expect(badge.headers()["content-type"]).toContain("image/svg+xml");
    expect(await badge.text()).toContain("degraded");
    const componentBadge = await anon.get(`/status/${slug}/badge/${summary.components[0]!.id}.svg?metric=uptime`);
    expect(componentBadge.status()).toBe(200);
    expect((await anon.get(`/status/${slug}/badge/${enrolled.nodeId}.svg`)).status()).toBe(404);

    // Resolve from the incident page; the public page moves it to past incidents.
    await page.getByRole("link", { name: `Slow responses ${sfx}` }).click();
    const update = page.getByTestId("post-update");
    await update.getByLabel("Status").selectOption("resolved");
    await update.getByLabel("Message (Markdown)").fill("Fixed: a bad peer was removed.");
    await update.getByRole("button", { name: "Post update" }).click();
    await expect(page.getByText("Update posted.")).toBeVisible();
    await pub.reload();
    await expect(pub.getByRole("heading", { name: "Active incidents" })).toHaveCount(0);
    await expect(pub.locator(".sp-incident.resolved")).toContainText(`Slow responses ${sfx}`);

    await anon.dispose();
    await publicContext.close();
    await context.close();
  });

  test("admin renames and moves a group and edits a maintenance window in place", async ({ browser }) => {
    const org = owner.organization.id;
    const slug = `e2e-edit-${uniqueSuffix()}`;
    const { id: pageId } = await apiJson<{ id: string }>(owner, "post", `/api/orgs/${org}/status-pages`, {
      slug,
      title: "Edit in place",
      isPublic: true,
    });
    const node = await enrollNodeInUi(browser, owner, { name: `edit-${slug}`, localRpcUrl: SIMNET_HIVE_URL });
    const component = await apiJson<{ id: string }>(
      owner,
      "post",
      `/api/orgs/${org}/status-pages/${pageId}/components`,
      { ref: `node:${node.nodeId}`, displayName: "Edited node" },
    );
    for (const name of ["Seeds", "APIs"])
      await apiJson(owner, "post", `/api/orgs/${org}/status-pages/${pageId}/groups`, { name });
    const hour = 3_600_000;
    await apiJson(owner, "post", `/api/orgs/${org}/status-pages/${pageId}/maintenance`, {
      title: "Upgrade",
      startsAt: new Date(Date.now() + 24 * hour).toISOString(),
      endsAt: new Date(Date.now() + 25 * hour).toISOString(),
      componentIds: [component.id],
    });

    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    await page.goto(`/app/o/${owner.organization.slug}/status-pages/${pageId}`);
    const groups = page.getByTestId("admin-group");
    await expect(groups).toHaveText([/Seeds/, /APIs/]);
    const seeds = groups.filter({ hasText: "Seeds" });
    await seeds.getByText("Rename").click();
    await seeds.getByLabel("New name").fill("Seed nodes");
    await seeds.getByRole("button", { name: "Save name" }).click();
    await expect(groups).toHaveText([/Seed nodes/, /APIs/]);
    await groups.filter({ hasText: "APIs" }).getByRole("button", { name: "Move up" }).click();
    await expect(groups).toHaveText([/APIs.*order 0/, /Seed nodes.*order 1/]);

    const mw = page.getByTestId("admin-maintenance");
    await mw.getByText("Edit", { exact: true }).click();
    await mw.getByLabel("Title").fill("Upgrade to 1.28");
    // The form's times are wall-clock times in the zone picked beside them; the ISO values below are UTC.
    await mw.getByLabel("Time zone").selectOption("UTC");
    await mw.getByLabel("Ends", { exact: true }).fill(new Date(Date.now() + 26 * hour).toISOString().slice(0, 16));
    await mw.getByLabel("Details (Markdown)").fill("Rolling **restart**.");
    await mw.getByRole("button", { name: "Save maintenance" }).click();
    await expect(mw).toContainText("Upgrade to 1.28");
    // A window ending before it starts is refused with the reason, and nothing changes.
    await mw.getByLabel("Time zone").selectOption("UTC");
    await mw.getByLabel("Ends", { exact: true }).fill(new Date(Date.now()).toISOString().slice(0, 16));
    await mw.getByRole("button", { name: "Save maintenance" }).click();
    await expect(mw.getByRole("alert").first()).toContainText("The end must be after the start.");

    const pub = await context.newPage();
    await pub.goto(`/status/${slug}`);
    await expect(pub.getByText("Upgrade to 1.28")).toBeVisible();
    await expect(pub.locator("strong", { hasText: "restart" })).toBeVisible();
    await context.close();
  });
});
