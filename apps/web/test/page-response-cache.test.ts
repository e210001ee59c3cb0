import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { statusPageCacheKey } from "../src/features/status/page-cache-proxy.js";
import { PageResponseCache, pageHtml, type PageCacheOptions } from "../src/features/status/page-response-cache.js";

const PH = "rpcpulsenonceplaceholder";

/** A cache over a counting renderer and a hand-driven clock. */
function setup(overrides: Partial<PageCacheOptions> = {}) {
  let clock = 1_000_000;
  let generation = 0;
  const calls: string[] = [];
  let answer: () => Response | Promise<Response> = () =>
    new Response(`<script nonce="${PH}">x</script><p>v${calls.length}</p><style nonce="${PH}"></style>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  const errors: string[] = [];
  const cache = new PageResponseCache(
    {
      freshMs: 10_000,
      maxStaleMs: 30_000,
      keepOnErrorMs: 600_000,
      maxEntries: 10,
      maxBytes: 1_000_000,
      generation: () => generation,
      now: () => clock,
      ...overrides,
    },
    PH,
    async (key, placeholder) => {
      assert.equal(placeholder, PH);
      calls.push(key);
      return answer();
    },
    (key) => errors.push(key),
  );
  return {
    cache,
    calls,
    errors,
    advance: (ms: number) => (clock += ms),
    invalidate: () => (generation += 1),
    respond: (fn: () => Response | Promise<Response>) => (answer = fn),
  };
}

describe("status page response cache", () => {
  test("renders once, then serves every visitor their own nonce", async () => {
    const t = setup();
    const first = await t.cache.get("/status/a");
    assert.equal(first.outcome, "miss");
    const second = await t.cache.get("/status/a");
    assert.equal(second.outcome, "hit");
    assert.equal(t.calls.length, 1);
    const html = pageHtml(second.page!, "NONCE1");
    assert.equal(html, '<script nonce="NONCE1">x</script><p>v1</p><style nonce="NONCE1"></style>');
    assert.ok(!pageHtml(second.page!, "N2").includes(PH), "the placeholder never reaches a visitor");
  });

  test("stale entries are served while one background render replaces them", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.advance(15_000);
    const stale = await Promise.all([t.cache.get("/status/a"), t.cache.get("/status/a")]);
    assert.deepEqual(
      stale.map((s) => s.outcome),
      ["stale", "stale"],
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(t.calls.length, 2, "one refresh for concurrent stale hits");
    const after = await t.cache.get("/status/a");
    assert.equal(after.outcome, "hit");
    assert.match(pageHtml(after.page!, "n"), /v2/);
  });

  test("too old or invalidated entries are rendered before answering; concurrent misses share a render", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.advance(31_000);
    assert.equal((await t.cache.get("/status/a")).outcome, "miss");
    t.invalidate();
    const [x, y] = await Promise.all([t.cache.get("/status/a"), t.cache.get("/status/a")]);
    assert.equal(x.outcome, "miss");
    assert.equal(y.outcome, "miss");
    assert.equal(t.calls.length, 3);
    assert.match(pageHtml(x.page!, "n"), /v3/);
  });

  test("an invalidation during a render does not let that render pass as current", async () => {
    const t = setup();
    let release: () => void = () => {};
    t.respond(
      () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(new Response("<p>old</p>", { headers: { "content-type": "text/html" } }));
        }),
    );
    const pending = t.cache.get("/status/a");
    await new Promise((r) => setImmediate(r));
    t.invalidate();
    release();
    assert.equal((await pending).outcome, "miss");
    t.respond(() => new Response("<p>new</p>", { headers: { "content-type": "text/html" } }));
    const next = await t.cache.get("/status/a");
    assert.equal(next.outcome, "miss");
    assert.equal(pageHtml(next.page!, "n"), "<p>new</p>");
  });

  test("a failing render keeps serving the last good page; without one the request passes through", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.advance(60_000);
    t.respond(() => new Response("db down", { status: 500, headers: { "content-type": "text/html" } }));
    const answer = await t.cache.get("/status/a");
    assert.equal(answer.outcome, "stale-error");
    assert.match(pageHtml(answer.page!, "n"), /v1/);
    assert.deepEqual(t.errors, ["/status/a"]);
    t.respond(() => {
      throw new Error("connection refused");
    });
    assert.equal((await t.cache.get("/status/b")).outcome, "bypass");
    t.advance(600_000);
    assert.equal((await t.cache.get("/status/a")).outcome, "bypass", "kept only keepOnErrorMs");
  });

  test("only 200 HTML without cookies is kept: 404s answer themselves, redirects and cookies pass through", async () => {
    const t = setup();
    t.respond(
      () => new Response(`<p nonce="${PH}">nope</p>`, { status: 404, headers: { "content-type": "text/html" } }),
    );
    const missing = await t.cache.get("/status/missing");
    assert.equal(missing.outcome, "gone");
    assert.equal(missing.page?.status, 404);
    assert.equal(pageHtml(missing.page!, "N"), '<p nonce="N">nope</p>', "the 404 page with the visitor's nonce");
    t.respond(() => new Response(null, { status: 307, headers: { location: "/x" } }));
    assert.equal((await t.cache.get("/status/moved")).outcome, "bypass");
    t.respond(() => new Response("<p/>", { headers: { "content-type": "text/html", "set-cookie": "a=b" } }));
    assert.equal((await t.cache.get("/status/cookie")).outcome, "bypass");
    t.respond(() => new Response("{}", { headers: { "content-type": "application/json" } }));
    assert.equal((await t.cache.get("/status/json")).outcome, "bypass");
    assert.deepEqual(t.cache.size, { entries: 0, bytes: 0 });
    assert.deepEqual(t.errors, [], "4xx and 3xx are answers, not render failures");
  });

  test("a cached page whose render answers 404 or 410 is dropped at once and that status answered", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    await t.cache.get("/status/b");
    t.advance(31_000);
    // Unpublished or deleted: 404, the old page is not served for keepOnErrorMs.
    t.respond(() => new Response("<h1>Not found</h1>", { status: 404, headers: { "content-type": "text/html" } }));
    const gone = await t.cache.get("/status/a");
    assert.equal(gone.outcome, "gone");
    assert.equal(gone.page?.status, 404);
    assert.equal(pageHtml(gone.page!, "n"), "<h1>Not found</h1>");
    assert.equal(t.cache.size.entries, 1, "dropped; the other page stays");
    // 410 with a body that is not HTML: dropped, and the request passes through for Next to answer.
    t.respond(() => new Response("gone", { status: 410, headers: { "content-type": "text/plain" } }));
    const b = await t.cache.get("/status/b");
    assert.equal(b.outcome, "gone");
    assert.equal(b.page, null);
    assert.deepEqual(t.cache.size, { entries: 0, bytes: 0 });
    assert.deepEqual(t.errors, []);
    // Published again: rendered and kept as usual.
    t.respond(() => new Response("<p>back</p>", { headers: { "content-type": "text/html" } }));
    assert.equal((await t.cache.get("/status/a")).outcome, "miss");
    assert.equal((await t.cache.get("/status/a")).outcome, "hit");
  });

  test("an edit that removes a page (invalidation) answers 404 on the next request, not the old page", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.invalidate();
    t.respond(() => new Response("<p>404</p>", { status: 404, headers: { "content-type": "text/html" } }));
    const answer = await t.cache.get("/status/a");
    assert.equal(answer.outcome, "gone");
    assert.equal(answer.page?.status, 404);
    assert.equal(t.cache.size.entries, 0);
  });

  test("a stale hit whose background render answers 404 drops the entry: the next visitor gets the 404", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.advance(15_000);
    t.respond(() => new Response("<p>404</p>", { status: 410, headers: { "content-type": "text/html" } }));
    assert.equal((await t.cache.get("/status/a")).outcome, "stale", "already answering; refreshed behind it");
    await new Promise((r) => setImmediate(r));
    assert.equal(t.cache.size.entries, 0);
    const next = await t.cache.get("/status/a");
    assert.equal(next.outcome, "gone");
    assert.equal(next.page?.status, 410);
  });

  test("a cached page whose render now redirects is dropped too; only 5xx and failures keep it", async () => {
    const t = setup();
    await t.cache.get("/status/a");
    t.advance(31_000);
    t.respond(() => new Response(null, { status: 308, headers: { location: "/status/renamed" } }));
    assert.equal((await t.cache.get("/status/a")).outcome, "bypass");
    assert.equal(t.cache.size.entries, 0);
    t.respond(() => new Response("<p>v</p>", { headers: { "content-type": "text/html" } }));
    await t.cache.get("/status/a");
    t.advance(31_000);
    t.respond(() => new Response("busy", { status: 503, headers: { "content-type": "text/html" } }));
    assert.equal((await t.cache.get("/status/a")).outcome, "stale-error");
    assert.equal(t.cache.size.entries, 1);
  });

  test("bounded by entries and bytes, oldest first", async () => {
    const t = setup({ maxEntries: 3, maxBytes: 200 });
    t.respond(() => new Response("x".repeat(60), { headers: { "content-type": "text/html" } }));
    for (const k of ["a", "b", "c", "d"]) await t.cache.get(`/status/${k}`);
    assert.deepEqual(t.cache.size, { entries: 3, bytes: 180 });
    assert.equal((await t.cache.get("/status/a")).outcome, "miss", "the oldest was evicted");
    t.respond(() => new Response("y".repeat(500), { headers: { "content-type": "text/html" } }));
    assert.equal((await t.cache.get("/status/huge")).outcome, "miss", "served, but never stored");
    assert.ok(t.cache.size.bytes <= 200);
  });
});

describe("status page cache keys", () => {
  const key = (path: string, query = "") => statusPageCacheKey(path, new URLSearchParams(query));
  test("the page itself, by slug or own domain, with a known notice; nothing else", () => {
    assert.equal(key("/status/demo"), "/status/demo");
    assert.equal(key("/status/demo/"), "/status/demo");
    assert.equal(key("/status/~status.example.org"), "/status/~status.example.org");
    assert.equal(key("/status/demo", "subscription=pending"), "/status/demo?subscription=pending");
    assert.equal(key("/status/demo", "subscription=<script>&x=1"), "/status/demo", "unknown values share the page");
    assert.equal(key("/status/demo", "subscription=constructor"), "/status/demo");
    assert.equal(key("/status/demo/rss"), null);
    assert.equal(key("/status/demo/badge/page.svg"), null);
    assert.equal(key("/status/"), null);
    assert.equal(key("/directory"), null);
    assert.equal(key("/status/a b"), null);
  });
});
