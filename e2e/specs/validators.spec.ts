import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The validator journey with the real pieces: the e2e stack's simnet (packages/simnet/demo.json) serves
 * substrate-api-sidecar's staking routes on :18080 and a Polkadot node on :18944; the organization's
 * sidecar node points its public URL there, so the worker's producers task reads the stash from it, and
 * its substrate node answers author_hasSessionKeys. Simnet's control server takes the validator offline:
 * im-online reports it at the next session start (≤ 20 blocks), the validator_offline_report rule
 * notifies a webhook receiver in this process naming the block, and the validator card and a public
 * status page listing the validator (added in the status-page editor) show it.
 */
const SIDECAR = "http://127.0.0.1:18080";
const POLKADOT_RPC = "http://127.0.0.1:18944";
const CONTROL = "http://127.0.0.1:18190";
/** Validator #20 of simnet's demo seed (not one of demo.json's): nobody else turns its knobs. */
const STASH = "14BPkWYgSc1VypBu8AN3ALyjxGDi4wrQ1mebRssoXQk7ri6y";

test.describe("validators", () => {
  let owner: ApiAccount;
  let receiver: http.Server | undefined;
  const received: { body: string }[] = [];

  test.beforeAll(async ({ baseURL }) => {
    owner = await createApiAccount(baseURL!, "validators");
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
    await fetch(`${CONTROL}/validators/polkadot/${STASH}/offline?on=0`, { method: "POST" }).catch(() => undefined);
    receiver?.close();
    await owner?.api.dispose();
  });

  test("a validator is reported offline: the alert names the block, the validator card and the status page show it", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const { slug, id: orgId } = owner.organization;

    // 1. The organization's sidecar (read from) and its validator node (asked for the session keys).
    for (const node of [
      { name: "dot-sidecar", apiFamily: "sidecar", clientName: "substrate-api-sidecar", url: SIDECAR },
      { name: "dot-validator", apiFamily: "substrate", clientName: "polkadot", url: POLKADOT_RPC },
    ]) {
      const created = await owner.api.post(`/api/orgs/${orgId}/nodes`, {
        data: {
          name: node.name,
          network: "polkadot",
          apiFamily: node.apiFamily,
          clientName: node.clientName,
          localRpcUrl: node.url,
          publicUrl: node.url,
        },
      });
      expect(created.status()).toBe(201);
    }

    // 2. A webhook channel and the offline-report rule (every producer of the organization).
    const receiverUrl = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/validator`;
    const channel = await owner.api.post(`/api/orgs/${orgId}/alert-channels`, {
      data: { name: "validator hook", type: "webhook", url: receiverUrl },
    });
    expect(channel.status()).toBe(201);
    const { id: channelId } = (await channel.json()) as { id: string };
    const rule = await owner.api.post(`/api/orgs/${orgId}/alert-rules`, {
      data: { name: "Validator offline", type: "validator_offline_report", target: "org", channelIds: [channelId] },
    });
    expect(rule.status()).toBe(201);

    // 3. The stash is registered from the fleet page's validator form; a broken address is refused in words.
    const context = await browser.newContext({ storageState: await owner.api.storageState() });
    const page = await context.newPage();
    await page.goto(`/app/o/${slug}`);
    await page.locator("#validator-network").selectOption("polkadot");
    await page.getByLabel("Stash address").fill(`${STASH.slice(0, -1)}x`);
    await page.getByRole("button", { name: "Watch validator" }).click();
    await expect(page.getByTestId("validator-error")).toContainText("SS58");
    await page.locator("#validator-network").selectOption("polkadot");
    await page.getByLabel("Stash address").fill(STASH);
    await page.getByRole("button", { name: "Watch validator" }).click();
    const card = () => page.getByRole("article", { name: `Validator ${STASH}` });
    await expect(card()).toBeVisible();

    // 4. The first reading arrives from the organization's sidecar, with the keys held by its node.
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await card().textContent()) ?? "";
        },
        { timeout: 90_000, intervals: [3_000] },
      )
      .toContain(`from ${SIDECAR}`);
    await expect(card().getByTestId("validator-status")).toContainText("in the active set");
    await expect(card()).toContainText("held by dot-validator");

    // 4b. A public status page lists the validator, picked in the status-page editor like a witness.
    const statusSlug = `validator-${slug}`.slice(0, 60);
    const created = await owner.api.post(`/api/orgs/${orgId}/status-pages`, {
      data: { slug: statusSlug, title: "Our validator", isPublic: true },
    });
    expect(created.status()).toBe(201);
    const { id: pageId } = (await created.json()) as { id: string };
    await page.goto(`/app/o/${slug}/status-pages/${pageId}`);
    const add = page.getByTestId("add-component");
    await add.getByLabel("Node or endpoint").selectOption({ label: `${STASH} · validator (Polkadot)` });
    await add.getByRole("button", { name: "Add component" }).click();
    await expect(page.getByTestId("admin-component")).toContainText(`${STASH} (validator)`);

    // 5. The validator goes offline; im-online reports it at the next session start.
    const off = await fetch(`${CONTROL}/validators/polkadot/${STASH}/offline`, { method: "POST" });
    expect(off.status).toBe(200);
    const { reportAtBlock } = (await off.json()) as { reportAtBlock: number };

    // 6. The alert is delivered with the block.
    await expect
      .poll(() => received.filter((r) => (JSON.parse(r.body) as { kind: string }).kind === "firing").length, {
        timeout: 200_000,
      })
      .toBe(1);
    const firing = JSON.parse(received.find((r) => JSON.parse(r.body).kind === "firing")!.body) as { title: string };
    expect(firing.title).toContain("reported offline 1 time");
    expect(firing.title).toContain(`block #${reportAtBlock}`);

    // 7. The card shows the report with its block.
    await page.goto(`/app/o/${slug}`);
    await expect(card()).toContainText("Reported offline 1 time(s) in the last 24 h.");
    await expect(card().getByTestId("last-offline")).toContainText(`block #${reportAtBlock}`);
    // The advisor explains the report against the organization's nodes and the session keys' holder.
    await expect(card().getByTestId("validator-explanation")).toContainText(
      `Reported offline in block #${reportAtBlock}`,
    );
    await page.screenshot({ path: test.info().outputPath("validator-card.png"), fullPage: true });
    await context.close();

    // 8. The public status page, without a session, shows the report with its block and a major outage
    // (a report in the last hour; the page's snapshot is cached for about 30 s).
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
      .toContain(`Reported offline in block #${reportAtBlock}`);
    await expect(pub.getByTestId("validator-set")).toHaveText("In the active set");
    await expect(pub.locator(".sp-component .sp-pill")).toHaveText("Major outage");
    await pub.screenshot({ path: test.info().outputPath("validator-status-page.png"), fullPage: true });
    await visitor.close();
  });
});
