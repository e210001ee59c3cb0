import { defineConfig, devices } from "@playwright/test";

/**
 * Runs against an already started app (scripts/e2e.sh builds it, migrates a fresh database and
 * starts it). Locally: E2E_BASE_URL=http://localhost:3000 npm test -w @rpcpulse/e2e.
 * Set E2E_START_SERVER=1 to let Playwright start `next start` itself.
 */
const env = process.env;
const baseURL = env.E2E_BASE_URL ?? "http://localhost:3000";

const chromium = {
  executablePath: env.E2E_CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "specs",
  // The run's SMTP mailbox (E2E_SMTP_PORT), read by specs through fixtures/mailbox.ts.
  globalSetup: "./global-setup.ts",
  forbidOnly: Boolean(env.CI),
  retries: env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    // Video needs Playwright's own ffmpeg download, which is not available here; traces are enough.
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    {
      name: "api",
      testMatch: /(health|tenant-isolation|org-api-key-walker|org-api-keys)\.spec\.ts$/,
      fullyParallel: true,
    },
    {
      name: "ui",
      testMatch:
        /(accounts|account-recovery|fleet|directory|advisor|status-alerting|status-pages|status-route-walker|accessibility|display-prefs|screenshots|producers|validators|consensus-client)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
      fullyParallel: false,
    },
  ],
  workers: env.CI ? 2 : undefined,
  ...(env.E2E_START_SERVER
    ? {
        webServer: {
          command: `node ../node_modules/.bin/next start ../apps/web -p ${new URL(baseURL).port || "3000"}`,
          url: `${baseURL}/api/health`,
          reuseExistingServer: true,
          timeout: 120_000,
        },
      }
    : {}),
});
