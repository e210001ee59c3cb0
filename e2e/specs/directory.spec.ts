import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { createSqlPool, type SqlPool } from "@rpcpulse/db/sql";
import { seedDemoDirectory } from "@rpcpulse/services/directory";
import { createApiAccount, uniqueSuffix, type ApiAccount } from "../fixtures/api-account.js";
import { settleStreaming, test } from "../fixtures/streaming.js";

/**
 * The public directory with real data: the simnet demo nodes are listed through the directory
 * service (seedDemoDirectory), the worker of the e2e stack probes and ranks them (PROBE_ALLOW_PRIVATE),
 * and the public pages and badges show what the JSON API says. No sign-in anywhere.
 */
const DEMO = resolve(import.meta.dirname, "../../packages/simnet/demo.json");
const HIVE_API = "http://127.0.0.1:18091";
const HIVE_LAGGING = "http://127.0.0.1:18092";

interface ApiEndpoint {
  id: string;
  url: string;
  name: string;
  rank: number;
  score: number;
  health: string;
}

async function rankedHive(api: APIRequestContext, query = ""): Promise<ApiEndpoint[]> {
  const res = await api.get(`/api/v1/chains/hive/endpoints${query}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { endpoints: ApiEndpoint[] }).endpoints;
}

test.describe("public directory", () => {
  let pool: SqlPool | undefined;
  let hive: ApiEndpoint;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL must name the e2e database (scripts/e2e.sh exports it)");
    pool = createSqlPool(url, { max: 2 });
    const demo = JSON.parse(readFileSync(DEMO, "utf8")) as { nodes: unknown[] };
    await seedDemoDirectory({ sql: pool }, { nodes: demo.nodes });
    // The worker probes every listed endpoint and writes a ranking snapshot about once a minute.
    await expect
      .poll(async () => (await rankedHive(request)).map((e) => e.url).sort(), { timeout: 150_000, intervals: [2_000] })
      .toEqual(expect.arrayContaining([HIVE_API, HIVE_LAGGING]));
    hive = (await rankedHive(request)).find((e) => e.url === HIVE_API)!;
  });

  test.afterAll(async () => {
    await pool?.end();
  });

  test("ranked page lists what the API ranks, in the same order, with filters in the URL", async ({
    page,
    request,
  }) => {
    const api = await rankedHive(request);
    await page.goto("/directory");
    await page.getByTestId("chain-hive").click();
    await expect(page).toHaveURL(/\/directory\/hive$/);
    await settleStreaming(page);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Hive");

    const rows = page.getByTestId("ranked-table").locator("tbody tr");
    await expect(rows).toHaveCount(api.length);
    const urls = await rows.locator(".dir-url code").allTextContents();
    // The snapshot may be replaced between the two reads; compare against a fresh API read if so.
    const fresh = await rankedHive(request);
    expect([api.map((e) => e.url), fresh.map((e) => e.url)]).toContainEqual(urls);
    const row = rows.filter({ hasText: HIVE_API });
    await expect(row.locator(".dir-status")).toHaveText(/healthy|degraded|lagging|stale|probation|dead/);
    await expect(row.getByRole("link", { name: hive.name })).toBeVisible();

    // The JSON API link carries the same query.
    await page.goto("/directory/hive?min=101&window=1h");
    await expect(page.getByTestId("json-api-link")).toHaveAttribute("href", "/api/v1/chains/hive/endpoints?window=1h");
    await page.goto("/directory/hive?min=100");
    const strict = await rankedHive(request, "?minScore=100");
    if (strict.length === 0) await expect(page.getByText("No endpoints match these filters")).toBeVisible();
    else await expect(page.getByTestId("ranked-table").locator("tbody tr")).toHaveCount(strict.length);
    await expect(page.getByTestId("json-api-link")).toHaveAttribute(
      "href",
      "/api/v1/chains/hive/endpoints?minScore=100",
    );
  });

  test("endpoint page shows history, capabilities and badge snippets", async ({ page, request }) => {
    test.setTimeout(150_000);
    // A chart needs two points: at the 1 h range they are raw probes, one round every ~30 s.
    await expect
      .poll(
        async () => {
          const res = await request.get(`/api/v1/endpoints/${hive.id}/history?range=1h`);
          return res.ok() ? ((await res.json()) as { points: unknown[] }).points.length : 0;
        },
        { timeout: 120_000, intervals: [3_000] },
      )
      .toBeGreaterThanOrEqual(2);
    await page.goto("/directory/hive");
    await page.getByRole("link", { name: hive.name }).click();
    await expect(page).toHaveURL(new RegExp(`/directory/endpoints/${hive.id}$`));
    await settleStreaming(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(hive.name);
    await expect(page.getByTestId("endpoint-url")).toHaveText(HIVE_API);
    await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
    await page
      .getByRole("navigation", { name: "History range" })
      .getByRole("link", { name: "1h", exact: true })
      .click();
    await expect(page).toHaveURL(/\?range=1h$/);
    await settleStreaming(page);
    // Two probes exist in the last hour, so the latency chart is drawn, not the empty state.
    await expect(page.getByRole("img", { name: /Latency/ })).toBeVisible();
    await expect(page.getByTestId("window-table")).toContainText("all");
    await expect(page.getByRole("heading", { name: "Capabilities" })).toBeVisible();
    const badge = page.getByTestId("badge-status");
    await expect(badge).toBeVisible();
    expect(await badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.locator(".dir-snippet code").first()).toContainText(
      `/badge/endpoint/${hive.id}.svg?metric=status`,
    );
  });

  test("network head on the index and the chain page; lag chart and recent errors on the endpoint page", async ({
    page,
  }) => {
    test.setTimeout(420_000);
    // The consensus head counts listed (active) endpoints only, two independent ones at least: Polkadot's
    // two simnet endpoints agree once they leave probation (10 clean probes). Hive has one fresh endpoint
    // (hive-lagging's head is older than the stale limit), so it may honestly have no consensus.
    await expect
      .poll(
        async () => {
          await page.goto("/directory");
          return (await page.getByTestId("head-polkadot").textContent()) ?? "";
        },
        { timeout: 360_000, intervals: [5_000] },
      )
      .toMatch(/^#[\d,]+ \(\d+ of \d+ agree/);
    await page.goto("/directory/polkadot");
    await expect(page.getByTestId("network-head")).toContainText(/Network head #[\d,]+ at .* agreed by \d+ of \d+/);
    // Lag is bucketed by minute: two minutes of probes draw the chart.
    await expect
      .poll(
        async () => {
          await page.goto(`/directory/endpoints/${hive.id}?range=1h`);
          return page.getByRole("img", { name: /Lag behind the network head/ }).count();
        },
        { timeout: 180_000, intervals: [5_000] },
      )
      .toBe(1);
    await expect(page.getByRole("heading", { name: "Recent errors" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("endpoint-page.png"), fullPage: true });
  });

  test.describe("signed in", () => {
    let account: ApiAccount;
    test.beforeAll(async ({ baseURL }) => {
      account = await createApiAccount(baseURL!, "dir");
    });
    test.afterAll(async () => account?.api.dispose());
    test.beforeEach(async ({ context }) => {
      await context.addCookies((await account.api.storageState()).cookies);
    });

    test("claim flow: from the endpoint page to the organization's claim, with an honest verification answer", async ({
      page,
    }) => {
      await page.goto(`/directory/endpoints/${hive.id}`);
      await expect(page.getByTestId("endpoint-operator")).toContainText("Not claimed");
      await page.getByRole("link", { name: /Claim it/ }).click();
      await expect(page).toHaveURL(new RegExp(`/app/o/${account.organization.slug}/endpoints\\?endpoint=${hive.id}$`));
      await expect(page.getByLabel("Endpoint URL or id")).toHaveValue(hive.id);
      await page.getByRole("button", { name: "Claim endpoint" }).click();
      const claim = page.getByTestId("claim").filter({ hasText: HIVE_API });
      await expect(claim).toBeVisible();
      await expect(claim).toContainText("pending");
      // 127.0.0.1 is no DNS name: only the well-known file is offered (there is no agent method), and the
      // web app refuses to fetch a loopback address (no CLAIM_ALLOW_PRIVATE in the e2e stack).
      await expect(claim.getByRole("button", { name: "Verify DNS record" })).toHaveCount(0);
      await expect(claim.getByRole("button", { name: /agent/i })).toHaveCount(0);
      await expect(claim.getByLabel("Or serve this file")).toHaveValue("https://127.0.0.1/.well-known/rpcpulse-claim");
      await claim.getByRole("button", { name: "Verify well-known file" }).click();
      await expect(claim).toContainText("was not fetched: the address is not public");
      await expect(claim).toContainText("pending");
      await page.screenshot({ path: test.info().outputPath("claims.png"), fullPage: true });
      await claim.getByRole("button", { name: /Withdraw/ }).click();
      await expect(page.getByTestId("claim").filter({ hasText: HIVE_API })).toHaveCount(0);
    });

    test("submission form: a signed-in user submits an endpoint, listed on probation", async ({ page, request }) => {
      // Submissions are resolved first; this offline stack runs with PROBE_ALLOW_PRIVATE, so a loopback
      // name the prober could reach is accepted (a public deployment refuses it with the reason).
      const url = `http://localhost:18099/e2e-${uniqueSuffix()}`;
      await page.goto("/directory");
      await page.getByRole("link", { name: "Submit an endpoint" }).click();
      await page.getByLabel("Endpoint URL").fill(url);
      await page.getByLabel("Network").selectOption("hive");
      await page.getByLabel("Name (optional)").fill("E2E submitted");
      await page.getByRole("button", { name: "Submit endpoint" }).click();
      await expect(page.getByText(`${url} is listed on probation`)).toBeVisible();
      const href = await page.getByTestId("submitted-link").getAttribute("href");
      const id = href!.split("/").pop()!;
      const detail = (await (await request.get(`/api/v1/endpoints/${id}`)).json()) as { url: string; status: string };
      expect(detail).toMatchObject({ url, status: "probation" });
      await page.getByLabel("Endpoint URL").fill("http://169.254.169.254/");
      await page.getByRole("button", { name: "Submit endpoint" }).click();
      await expect(page.getByText(/URL refused: address 169\.254\.169\.254 is metadata/)).toBeVisible();
      await page.getByLabel("Endpoint URL").fill(`https://rpc-${uniqueSuffix()}.e2e.invalid`);
      await page.getByRole("button", { name: "Submit endpoint" }).click();
      await expect(page.getByText(/URL refused: .*\.e2e\.invalid does not resolve/)).toBeVisible();
    });
  });

  test("badges: SVG, cached, 404 for unknown ids, 400 for unknown metrics", async ({ request }) => {
    for (const metric of ["status", "uptime", "latency", "score"]) {
      const res = await request.get(`/badge/endpoint/${hive.id}.svg?metric=${metric}`);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(res.headers()["cache-control"]).toBe("public, max-age=60");
      const body = await res.text();
      expect(body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(body).not.toContain("not found");
    }
    const score = await (await request.get(`/badge/endpoint/${hive.id}.svg?metric=score`)).text();
    expect(score).toMatch(/>\d{1,3}\/100</);
    const missing = await request.get("/badge/endpoint/00000000-0000-4000-8000-000000000000.svg");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(await missing.text()).toContain("not found");
    expect((await request.get("/badge/endpoint/not-a-uuid.svg")).status()).toBe(404);
    expect((await request.get(`/badge/endpoint/${hive.id}.svg?metric=bogus`)).status()).toBe(400);
  });
});
