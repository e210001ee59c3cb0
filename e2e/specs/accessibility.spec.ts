import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type Page } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createShowcase, waitForFleet, type Showcase } from "../fixtures/showcase.js";

/**
 * axe-core on every main page, in the light and the dark theme (the dark one through the system
 * setting, which the head script follows): no serious or critical WCAG 2.1 A/AA violation.
 */
const THEMES = ["light", "dark"] as const;

let showcase: Showcase;

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  showcase = await createShowcase(browser, baseURL!, "a11y");
});

test.afterAll(async () => {
  await showcase?.stop();
});

function pages(s: Showcase): { name: string; path: string; signedIn: boolean }[] {
  const o = `/app/o/${s.account.organization.slug}`;
  return [
    { name: "landing", path: "/", signedIn: false },
    { name: "sign-in", path: "/sign-in", signedIn: false },
    { name: "directory", path: "/directory", signedIn: false },
    { name: "directory ranking", path: "/directory/hive", signedIn: false },
    { name: "public status page", path: `/status/${s.statusSlug}`, signedIn: false },
    { name: "fleet", path: o, signedIn: true },
    { name: "node detail", path: `${o}/nodes/${s.nodeIds[0]}`, signedIn: true },
    { name: "advisor", path: `${o}/advisor`, signedIn: true },
    { name: "alerts", path: `${o}/alerts`, signedIn: true },
    { name: "status pages admin", path: `${o}/status-pages`, signedIn: true },
    { name: "endpoints and claims", path: `${o}/endpoints`, signedIn: true },
    { name: "settings", path: `${o}/settings`, signedIn: true },
  ];
}

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`)
          .join("\n    ")}`,
    );
}

async function context(browser: Browser, theme: (typeof THEMES)[number], signedIn: boolean) {
  return browser.newContext({
    colorScheme: theme,
    storageState: signedIn ? await showcase.account.api.storageState() : undefined,
  });
}

for (const theme of THEMES) {
  test(`no serious or critical axe violations on the main pages (${theme})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const signedIn = await context(browser, theme, true);
    const anon = await context(browser, theme, false);
    try {
      await waitForFleet(await signedIn.newPage(), showcase.account.organization.slug);
      const found: string[] = [];
      for (const p of pages(showcase)) {
        const page = await (p.signedIn ? signedIn : anon).newPage();
        // "load", not "networkidle": the fleet and node pages poll and refresh on their own.
        const res = await page.goto(p.path, { waitUntil: "load" });
        expect(res?.status(), p.path).toBeLessThan(400);
        await page.locator("main").first().waitFor();
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        for (const v of await violations(page)) found.push(`${p.name} (${p.path}, ${theme}): ${v}`);
        await page.close();
      }
      expect(found, found.join("\n")).toEqual([]);
    } finally {
      await signedIn.close();
      await anon.close();
    }
  });
}
