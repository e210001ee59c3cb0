import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount, type ApiAccount } from "../fixtures/api-account.js";

/**
 * The theme and the UTC toggle are remembered (cookies) across reloads and pages; times follow the
 * browser's zone by default; the first paint already has the chosen theme (set on <html> before
 * any script of the page's own runs).
 */
let owner: ApiAccount;

test.beforeAll(async ({ baseURL }) => {
  owner = await createApiAccount(baseURL!, "prefs");
});

test("theme: system by default, a choice survives reloads and reaches the first HTML", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark", storageState: await owner.api.storageState() });
  const page = await context.newPage();
  await page.goto(`/app/o/${owner.organization.slug}`);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByTestId("theme-select")).toHaveValue("system");

  await page.getByTestId("theme-select").selectOption("light");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  // The server renders the attribute itself: no flash of the system's dark theme.
  const html = await (await context.request.get(`/app/o/${owner.organization.slug}`)).text();
  expect(html).toMatch(/<html[^>]*data-theme="light"/);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe("rgb(245, 247, 250)");

  await page.getByTestId("theme-select").selectOption("dark");
  await page.goto("/directory");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 22, 35)");
  await context.close();
});

test("times: the browser's zone by default, UTC when toggled, remembered", async ({ browser }) => {
  const context = await browser.newContext({
    timezoneId: "America/New_York",
    storageState: await owner.api.storageState(),
  });
  const page = await context.newPage();
  await page.goto(`/app/o/${owner.organization.slug}/settings`);
  const toggle = page.getByTestId("utc-toggle");
  // First visit: the browser reports its zone (cookie) and the page renders again in it.
  await expect(toggle).toHaveText(/Times: E[SD]T/);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "rp-tz")?.value).toBe(encodeURIComponent("America/New_York"));

  await toggle.click();
  await expect(toggle).toHaveText("Times: UTC");
  await page.reload();
  await expect(page.getByTestId("utc-toggle")).toHaveAttribute("aria-pressed", "true");
  expect((await context.cookies()).find((c) => c.name === "rp-time")?.value).toBe("utc");

  await page.getByTestId("utc-toggle").click();
  await expect(page.getByTestId("utc-toggle")).toHaveText(/Times: E[SD]T/);
  await context.close();
});
