import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

/**
 * The library in a real browser: src bundled by esbuild for the browser platform, a page served on
 * 127.0.0.1, the ranked list fetched cross-origin from the fixture directory API (CORS), and JSON-RPC calls
 * to simnet nodes. Simnet sends no CORS headers and refuses the preflight OPTIONS, so the page's origin
 * proxies /rpc/<node> to the nodes; a dead node shows up as a 502 from the proxy, as with a real load balancer.
 */

const CHROMIUM = "/usr/bin/chromium";
const here = fileURLToPath(new URL(".", import.meta.url));
const srcDir = join(here, "..", "src");
const NETWORK = "ethereum-mainnet";

test("src imports no Node built-ins (browser-safe)", async () => {
  const files = (await readdir(srcDir, { recursive: true })).filter((f) => f.endsWith(".ts"));
  assert.ok(files.length >= 8);
  for (const file of files) {
    const text = await readFile(join(srcDir, file), "utf8");
    assert.doesNotMatch(text, /from\s+["'](node:|fs|path|http|https|net|url|crypto|buffer)["']/, file);
    assert.doesNotMatch(text, /\b(process|Buffer|require)\s*[.(]/, file);
  }
});

let bundle = "";
test("esbuild bundles the client for the browser platform", async () => {
  const result = await build({
    entryPoints: [join(here, "browser", "page.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  bundle = result.outputFiles[0]?.text ?? "";
  assert.ok(bundle.length > 1000);
  assert.ok(bundle.length < 40_000, `bundle is ${bundle.length} bytes`);
});

// Chromium missing is a failure, not a skip: CI installs it (.ci/run).
const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install -y chromium)`;
let simnet: Simnet;
let api: DirectoryFixture;
let page: Server;
let pageUrl = "";
let browser: Browser | undefined;

before(async () => {
  if (missing) return;
  simnet = await startSimnet(
    {
      seed: "client-browser",
      nodes: ["b1", "b2"].map((name, i) => ({ name, family: "ethereum", network: NETWORK, port: 0, lagBlocks: i })),
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  page = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path.startsWith("/rpc/") && req.method === "POST") {
      const node = simnet.nodes.find((n) => n.name === path.slice(5));
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        fetch(node?.url ?? "http://127.0.0.1:9", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: Buffer.concat(chunks),
        })
          .then(async (r) => {
            res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
            res.end(await r.text());
          })
          .catch(() => {
            res.writeHead(502, { "content-type": "text/html" });
            res.end("<html><body>502 Bad Gateway</body></html>");
          });
      });
    } else if (path === "/bundle.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(bundle);
    } else if (path.startsWith("/?") || path === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        '<!doctype html><title>rpcpulse client</title><pre id="log"></pre><script type="module" src="/bundle.js"></script>',
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  api = await startDirectoryFixture(
    {
      [NETWORK]: rankedBody(
        NETWORK,
        ["b1", "b2"].map((n) => ({ name: n, url: `${origin}/rpc/${n}` })),
      ),
    },
    { cacheControl: "no-store" },
  ); // the real API is cacheable; here the reload must really find it down
  pageUrl = `${origin}/?network=${NETWORK}&api=${encodeURIComponent(api.url)}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
});

after(async () => {
  await browser?.close();
  if (missing) return;
  await api.close();
  page.closeAllConnections();
  await new Promise<void>((resolve) => page.close(() => resolve()));
  await simnet.close();
});

test("in Chromium, the page fails over when the best endpoint dies", async () => {
  assert.equal(missing, null);
  assert.ok(bundle, "bundle built");
  const context = await browser!.newContext();
  const tab = await context.newPage();
  const pageErrors: string[] = [];
  tab.on("pageerror", (e) => pageErrors.push(e.message));
  await tab.goto(pageUrl);
  await tab.waitForFunction(() => typeof window.rpcpulse === "object");
  await tab.evaluate(() => window.rpcpulse.ready());
  assert.equal(await tab.evaluate(() => window.rpcpulse.source()), "api", "ranked list fetched cross-origin (CORS)");
  assert.equal(await tab.evaluate(() => window.rpcpulse.stored()), 1, "last good list kept in localStorage");

  const first = await tab.evaluate(() => window.rpcpulse.blockNumber());
  assert.match(first.url, /\/rpc\/b1$/);
  assert.equal(first.head, simnet.node("b1").head());

  await simnet.node("b1").close();
  const second = await tab.evaluate(() => window.rpcpulse.blockNumber());
  assert.match(second.url, /\/rpc\/b2$/);
  assert.equal(second.head, simnet.node("b2").head());
  assert.match((await tab.evaluate(() => window.rpcpulse.current())) ?? "", /\/rpc\/b2$/);
  assert.match(await tab.locator("#log").innerText(), /from .*\/rpc\/b2/);

  // Reload with the directory down: the page starts from the stored list and still answers from b2.
  api.setBody(NETWORK, null);
  await tab.reload();
  await tab.waitForFunction(() => typeof window.rpcpulse === "object");
  await tab.evaluate(() => window.rpcpulse.ready());
  assert.equal(await tab.evaluate(() => window.rpcpulse.source()), "storage");
  const third = await tab.evaluate(() => window.rpcpulse.blockNumber());
  assert.match(third.url, /\/rpc\/b2$/);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
