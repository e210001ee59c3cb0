import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createShowcase, waitForFleet, type Showcase } from "../fixtures/showcase.js";

/**
 * Screenshots of the real pages for the landing page and the README (apps/web/public/screenshots),
 * taken from the e2e stack's own data on every run so they stay current: simnet nodes reporting
 * through the bundled agent, the directory ranking the prober builds, and a public status page.
 */
const OUT = resolve(import.meta.dirname, "../../apps/web/public/screenshots");
let showcase: Showcase;

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  mkdirSync(OUT, { recursive: true });
  showcase = await createShowcase(browser, baseURL!, "showcase");
});

test.afterAll(async () => {
  await showcase?.stop();
});

test("screenshots of the fleet, advisor, directory and a status page", async ({ browser }) => {
  test.setTimeout(240_000);
  const slug = showcase.account.organization.slug;
  const signedIn = await browser.newContext({
    colorScheme: "light",
    viewport: { width: 1280, height: 800 },
    storageState: await showcase.account.api.storageState(),
  });
  const page = await signedIn.newPage();
  await waitForFleet(page, slug);
  // The lagging node shows as lagging once its lag is measured (against the consensus head or the
  // organization's other node); take the picture either way after a fair wait.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("fleet-table").locator(".status.lagging")).toHaveCount(1, { timeout: 1_000 });
  })
    .toPass({ timeout: 45_000, intervals: [3_000] })
    .catch(() => undefined);
  await page.screenshot({ path: `${OUT}/fleet.png` });

  // The advisor's sweep runs every few seconds over a one-minute window (scripts/e2e.sh): give the
  // lagging node's suggestion a chance, and take the page as it is either way.
  await page.goto(`/app/o/${slug}/advisor`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("suggestion").first()).toBeVisible({ timeout: 1_000 });
  })
    .toPass({ timeout: 75_000, intervals: [5_000] })
    .catch(() => undefined);
  await page.screenshot({ path: `${OUT}/advisor.png` });
  await signedIn.close();

  const anon = await browser.newContext({ colorScheme: "light", viewport: { width: 1280, height: 800 } });
  const pub = await anon.newPage();
  await pub.goto("/directory/hive");
  await expect(pub.getByTestId("ranked-table")).toBeVisible();
  await pub.screenshot({ path: `${OUT}/directory.png` });
  await pub.goto(`/status/${showcase.statusSlug}`);
  await expect(pub.getByText("API node (Frankfurt)").first()).toBeVisible();
  await pub.screenshot({ path: `${OUT}/status-page.png` });
  await anon.close();
});
