import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { NextRequest } from "next/server";
import { customHostOf, rewriteForHost } from "../src/features/status/page-lookup.js";
import type * as ProxyModule from "../src/proxy.js";

/**
 * A status page's own domain serves that page only: the proxy (src/proxy.ts) rewrites every request on
 * a custom Host under /status/~<host>, API and prefetches included, so other pages' slugs, /app and
 * the API are that page's 404. Run against the real proxy function and its matcher.
 */
const APP = "https://pulse.example";
let proxyModule: typeof ProxyModule;

before(async () => {
  // Set before the app's env is first read (it is parsed once); no page cache renders in this test.
  process.env.APP_BASE_URL = APP;
  process.env.STATUS_PAGE_CACHE_FRESH_MS = "0";
  proxyModule = await import("../src/proxy.js");
});

async function route(host: string, path: string, headers: Record<string, string> = {}) {
  const request = new NextRequest(`http://${host}${path}`, { headers: { host, ...headers } });
  const response = await proxyModule.proxy(request);
  const rewrite = response.headers.get("x-middleware-rewrite");
  return {
    to: rewrite ? new URL(rewrite).pathname + new URL(rewrite).search : null,
    next: response.headers.get("x-middleware-next") === "1",
    csp: response.headers.has("content-security-policy"),
  };
}

describe("custom hosts reach only their own page", () => {
  test("the matcher sends every path but static files through the proxy, prefetches included", () => {
    const matcher = proxyModule.config.matcher;
    assert.equal(matcher.length, 1);
    const source = matcher[0]!;
    assert.equal(typeof source, "string", "no header conditions that a request could use to skip the proxy");
    const re = new RegExp(`^${source}$`);
    for (const p of ["/", "/api/v1/chains", "/api/health", "/app", "/status/demo", "/icon.svg"])
      assert.ok(re.test(p), p);
    for (const p of ["/_next/static/chunks/a.js", "/_next/image", "/favicon.ico"]) assert.ok(!re.test(p), p);
  });

  test("on its domain: the page and its public routes, everything else under the page (404)", async () => {
    const host = "status.example.org";
    assert.deepEqual(await route(host, "/"), { to: "/status/~status.example.org", next: false, csp: true });
    assert.equal((await route(host, "/rss")).to, "/status/~status.example.org/rss");
    assert.equal((await route(host, "/?subscription=pending")).to, "/status/~status.example.org?subscription=pending");
    assert.equal((await route(host, "/subscription")).to, "/status/~status.example.org/subscription");
    for (const path of [
      "/status/other-page",
      "/status/other-page/summary.json",
      "/status/~other.example.org",
      "/app",
      "/app/o/acme/nodes",
      "/sign-in",
      "/directory",
      "/api/v1/chains",
      "/api/orgs/x/nodes",
      "/api/auth/get-session",
      "/api/health",
      "/badge/endpoint/x.svg",
    ]) {
      assert.equal((await route(`${host}:443`, path)).to, `/status/~status.example.org${path}`, path);
    }
    // A prefetch cannot skip the mapping.
    const prefetch = await route(host, "/status/other-page", { "next-router-prefetch": "1", rsc: "1" });
    assert.equal(prefetch.to, "/status/~status.example.org/status/other-page");
    assert.equal((await route(host, "/app", { purpose: "prefetch" })).to, "/status/~status.example.org/app");
    // Assets are the same on every host.
    assert.deepEqual(await route(host, "/icon.svg"), { to: null, next: true, csp: true });
  });

  test("the app's own host and loopback are not mapped; its API and prefetches skip the nonce", async () => {
    assert.deepEqual(await route("pulse.example", "/status/demo"), { to: null, next: true, csp: true });
    assert.deepEqual(await route("pulse.example", "/api/v1/chains"), { to: null, next: true, csp: false });
    assert.deepEqual(await route("pulse.example", "/directory", { "next-router-prefetch": "1" }), {
      to: null,
      next: true,
      csp: false,
    });
    assert.equal((await route("127.0.0.1:3000", "/status/~status.example.org")).to, null, "the page cache's renders");
    assert.equal((await route("localhost:3000", "/app")).to, null);
  });

  test("a host no page can have (an IP, an internal name) serves nothing but the liveness probe", async () => {
    assert.equal((await route("10.0.0.5:3000", "/")).to, "/status/~invalid");
    assert.equal((await route("10.0.0.5:3000", "/api/v1/chains")).to, "/status/~invalid/api/v1/chains");
    assert.equal((await route("web:3000", "/status/demo")).to, "/status/~invalid/status/demo");
    assert.deepEqual(await route("10.0.0.5:3000", "/api/health"), { to: null, next: true, csp: false });
    assert.deepEqual(await route("web:3000", "/api/health"), { to: null, next: true, csp: false });
  });

  test("host parsing", () => {
    const appHost = "pulse.example:443";
    assert.equal(customHostOf({ host: "Status.Example.org:8443", appHost }), "status.example.org");
    assert.equal(customHostOf({ host: "pulse.example", appHost }), null);
    assert.equal(customHostOf({ host: "[::1]:3000", appHost }), null);
    assert.equal(customHostOf({ host: null, appHost }), null);
    assert.equal(rewriteForHost({ host: "a_b.example.org", appHost, pathname: "/" }), "/status/~invalid");
    assert.equal(rewriteForHost({ host: "pulse.example", appHost, pathname: "/api/x" }), null);
  });
});
