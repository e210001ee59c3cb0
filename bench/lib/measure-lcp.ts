/**
 * Largest Contentful Paint of one page in headless Chromium (/usr/bin/chromium), shared by the page
 * benches. Each run opens a fresh browser context (no cache carried over between runs apart from
 * the browser's own), records the last `largest-contentful-paint` entry through a
 * PerformanceObserver installed before the page's scripts, loads the page, waits 1 s, and calls
 * `check` so the bench can assert the page really rendered what it measures. One warm-up run comes
 * first and is not counted.
 */
import { chromium, type Page } from "playwright-core";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

export interface LcpRun {
  /** 0 is the warm-up run; 1..runs are measured. */
  index: number;
  /** The LCP of this run in ms (0 when the page produced no entry). */
  lcp: number;
}

export interface MeasureLcpOptions {
  url: string;
  /** Measured runs, after one warm-up run. */
  runs: number;
  /** Default 1366 × 900. */
  viewport?: { width: number; height: number };
  /** A `cookie` header value (`a=1; b=2`), set on the page's host for every run (signed-in pages). */
  cookie?: string;
  /** Called on every run (warm-up included) after the LCP is read; throw to stop the bench. */
  check?: (page: Page, run: LcpRun) => Promise<void>;
  /** Where to save a screenshot of the viewport on the last run. */
  screenshotPath?: string;
}

/** LCP of each measured run in ms, sorted ascending. */
export async function measureLcp(options: MeasureLcpOptions): Promise<number[]> {
  const { url, runs } = options;
  const viewport = options.viewport ?? { width: 1366, height: 900 };
  const cookies = options.cookie ? cookiesOf(options.cookie, new URL(url).hostname) : [];
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  const results: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext({ viewport });
      if (cookies.length > 0) await context.addCookies(cookies);
      await context.addInitScript(() => {
        const w = window as unknown as { __lcp: number };
        w.__lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.__lcp = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
      });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load" });
      await page.waitForTimeout(1_000);
      const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
      await options.check?.(page, { index: i, lcp });
      if (i > 0) results.push(lcp); // the first run warms the browser's caches
      if (i === runs && options.screenshotPath) await page.screenshot({ path: options.screenshotPath });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results.sort((a, b) => a - b);
}

function cookiesOf(header: string, domain: string) {
  return header.split("; ").map((pair) => {
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), domain, path: "/" };
  });
}
