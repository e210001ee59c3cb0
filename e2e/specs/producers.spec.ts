import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The witness journey with the real pieces: the e2e stack's simnet (packages/simnet/demo.json) answers
 * hived's witness calls; the organization's node points its public URL at simnet's Hive API, so the
 * worker's producers task reads the witness from it; a witness_missed_block rule notifies a webhook
 * receiver in this process. Simnet's control server (demo.json controlPort) makes the witness miss its
 * next slot: the alert is delivered naming the exact block (hived's producer_missed virtual operation,
 * simnet's account_history_api.enum_virtual_ops), and the witness card on the fleet page and the public
 * status page that lists the witness (added in the status-page editor) show it.
 */
const HIVE_API = "http://127.0.0.1:18091";
const CONTROL = "http://127.0.0.1:18190";

test.describe("block producers", () => {
  let owner: ApiAccount;
  let receiver: http.Server | undefined;
  const received: { body: string }[] = [];

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "producers");
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", () => r()));
  });

  test.afterAll(async () => {
    receiver?.close();
    await owner?.api.dispose();
  });

  test("a witness misses a block: the alert names it, the witness card and the status page show it", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const { slug, id: orgId } = owner.organization;

    // 1. A node of the organization whose public URL is simnet's Hive API: the witness is read from it.
    const node = await owner.api.post(`/api/orgs/${orgId}/nodes`, {
      data: {
        name: "hive-witness-node",
        network: "hive",
        apiFamily: "hive",
        clientName: "hived",
        localRpcUrl: HIVE_API,
        publicUrl: HIVE_API,
      },
    });
    expect(node.status()).toBe(201);

    // 2. A webhook channel and the missed-block rule (every witness of the organization).
    const receiverUrl = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/witness`;
    const channel = await owner.api.post(`/api/orgs/${orgId}/alert-channels`, {
      data: { name: "witness hook", type: "webhook", url: receiverUrl },
    });
    expect(channel.status()).toBe(201);
    const { id: channelId } = (await channel.json()) as { id: string };
    const rule = await owner.api.post(`/api/orgs/${orgId}/alert-rules`, {
      data: { name: "Witness missed a block", type: "witness_missed_block", target: "org", channelIds: [channelId] },
    });
    expect(rule.status()).toBe(201);

    // 3. The witness is registered from the fleet page's card.
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    await page.goto(`/app/o/${slug}`);
    await page.locator("#producer-network").selectOption("hive");
    await page.getByLabel("Witness account").fill("gtg");
    await page.getByRole("button", { name: "Watch witness" }).click();
    // The card by its accessible name: a hidden copy of the page (streamed HTML) can hold the same test id.
    const card = () => page.getByRole("article", { name: "Witness gtg" });
    await expect(card()).toBeVisible();
    // A wrong name is refused in words.
    await page.getByLabel("Witness account").fill("No Such Name");
    await page.getByRole("button", { name: "Watch witness" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "account name" })).toBeVisible();

    // 4. The first reading arrives: read from the node's public URL.
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await card().textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [3_000] },
      )
      .toContain(`from ${HIVE_API}`);

    // 5. A public status page lists the witness, added in the status-page editor.
    const statusSlug = `witness-${slug}`.slice(0, 60);
    const created = await owner.api.post(`/api/orgs/${orgId}/status-pages`, {
      data: { slug: statusSlug, title: "Our witness", isPublic: true },
    });
    expect(created.status()).toBe(201);
    const { id: pageId } = (await created.json()) as { id: string };
    await page.goto(`/app/o/${slug}/status-pages/${pageId}`);
    const add = page.getByTestId("add-component");
    await add.getByLabel("Node or endpoint").selectOption({ label: "gtg · witness (Hive)" });
    await add.getByRole("button", { name: "Add component" }).click();
    await expect(page.getByTestId("admin-component")).toContainText("gtg (witness)");

    // 6. The witness misses its next slot.
    const missed = await fetch(`${CONTROL}/witnesses/hive/gtg/miss`, { method: "POST" });
    expect(missed.status).toBe(200);
    const { block } = (await missed.json()) as { block: number };

    // 7. The alert is delivered with the exact block.
    await expect
      .poll(() => received.filter((r) => (JSON.parse(r.body) as { kind: string }).kind === "firing").length, {
        timeout: 150_000,
      })
      .toBe(1);
    const firing = JSON.parse(received.find((r) => JSON.parse(r.body).kind === "firing")!.body) as {
      title: string;
      body: string;
    };
    expect(firing.title).toMatch(/^@gtg \(hive\): 1 missed block/);
    expect(firing.body).toContain(`block #${block}, seen `);

    // 8. The witness card shows the miss with its block.
    await page.goto(`/app/o/${slug}`);
    await expect(card()).toContainText("1 missed block(s) in the last 24 h");
    await expect(card().getByTestId("last-miss")).toContainText(`block #${block}`);
    await page.screenshot({ path: test.info().outputPath("witness-card.png"), fullPage: true });
    await context.close();

    // 9. The public status page, without a session, shows the miss with its block number (the page's
    // snapshot is cached for about 30 s).
    const visitor = await browser.newContext();
    const pub = await visitor.newPage();
    await expect
      .poll(
        async () => {
          await pub.goto(`/status/${statusSlug}`);
          return (await pub.getByTestId("producer-facts").first().textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [5_000] },
      )
      .toContain(`Missed block #${block}`);
    await expect(pub.locator(".sp-component .sp-pill")).toHaveText("Degraded performance");
    await pub.screenshot({ path: test.info().outputPath("witness-status-page.png"), fullPage: true });
    await visitor.close();
  });
});
