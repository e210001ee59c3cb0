import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createEndpointPicker, HealthView, InvalidListError, type ListStorage } from "../src/index.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

const A = "http://a.test:8545";
const B = "http://b.test:8545";
const C = "http://c.test:8545";
let api: DirectoryFixture;

before(async () => {
  api = await startDirectoryFixture({
    "ethereum-mainnet": rankedBody("ethereum-mainnet", [
      { name: "a", url: A, wsUrl: "ws://a.test:8546", capabilities: { archive: true } },
      { name: "b", url: B, capabilities: { archive: true } },
      { name: "c", url: C, wsUrl: "ws://c.test:8546", capabilities: { archive: true } },
    ]),
  });
});
after(() => api.close());

function memoryStorage(): ListStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

test("fetches the ranked list with the contract's query and serves the best endpoint", async () => {
  const picker = createEndpointPicker({
    network: "ethereum-mainnet",
    apiBase: `${api.url}/`,
    region: "eu-central",
    capabilities: ["archive", "websocket"],
    minScore: 80,
    refreshMs: 0,
  });
  await picker.ready();
  const path = api.requests.at(-1) ?? "";
  const query = new URL(path, api.url).searchParams;
  assert.equal(new URL(path, api.url).pathname, "/api/v1/chains/ethereum-mainnet/endpoints");
  assert.equal(query.get("region"), "eu-central");
  assert.equal(query.get("capability"), "archive,websocket");
  assert.equal(query.get("minScore"), "80");
  assert.equal(query.get("window"), "24h");
  assert.equal(picker.source, "api");
  // The fixture ignores the filters; the picker applies them again: b has no WebSocket.
  assert.deepEqual(picker.urls(), [A, C]);
  assert.deepEqual(picker.wsUrls(), ["ws://a.test:8546", "ws://c.test:8546"]);
  assert.equal(picker.current()?.name, "a");
  assert.equal(picker.list()?.endpoints.length, 3);
  picker.close();
});

test("an unreachable API falls back to the bundled list, then switches to the API list once it answers", async () => {
  api.setBody("hive", null);
  const errors: unknown[] = [];
  const picker = createEndpointPicker({
    network: "hive",
    apiBase: api.url,
    refreshMs: 0,
    fallback: ["https://api.example-hive.test", { url: "https://rpc.example-hive.test", name: "second" }],
    onError: (e) => errors.push(e),
  });
  assert.equal(picker.source, "fallback", "the fallback is served before the first answer");
  await picker.ready();
  assert.equal(picker.source, "fallback");
  assert.match(String(picker.lastError), /HTTP 503/);
  assert.equal(errors.length, 1);
  assert.deepEqual(picker.urls(), ["https://api.example-hive.test", "https://rpc.example-hive.test"]);
  assert.equal(picker.candidates()[1]?.name, "second");

  api.setBody("hive", rankedBody("hive", [{ name: "x", url: "https://x.test" }]));
  assert.equal(await picker.refresh(), true);
  assert.equal(picker.source, "api");
  assert.equal(picker.lastError, null);
  assert.deepEqual(picker.urls(), ["https://x.test"]);
  picker.close();
});

test("an invalid answer never replaces the last good list (stale-while-revalidate keeps serving it)", async () => {
  const storage = memoryStorage();
  const network = "ethereum-mainnet";
  const picker = createEndpointPicker({ network, apiBase: api.url, refreshMs: 0, storage });
  await picker.ready();
  assert.deepEqual(picker.urls(), [A, B, C]);
  assert.equal(storage.data.size, 1);

  const broken = rankedBody(network, [{ name: "a", url: A }]) as { endpoints: { score: number }[] };
  (broken.endpoints[0] as { score: unknown }).score = "high";
  api.setBody(network, broken);
  assert.equal(await picker.refresh(), false);
  assert.ok(picker.lastError instanceof InvalidListError);
  assert.match((picker.lastError as Error).message, /endpoints\[0\]\.score/);
  assert.deepEqual(picker.urls(), [A, B, C], "still the last good list");

  api.setBody(network, rankedBody("hive", [{ name: "h", url: "https://h.test" }]));
  assert.equal(await picker.refresh(), false, "a list for another network is refused");
  assert.deepEqual(picker.urls(), [A, B, C]);

  // A new picker (say after a page reload) starts from storage while the API is down.
  api.setBody(network, null);
  const reloaded = createEndpointPicker({
    network,
    apiBase: api.url,
    refreshMs: 0,
    storage,
    fallback: ["https://fb.test"],
  });
  assert.equal(reloaded.source, "storage");
  await reloaded.ready();
  assert.equal(reloaded.source, "storage");
  assert.deepEqual(reloaded.urls(), [A, B, C]);
  picker.close();
  reloaded.close();
  api.setBody(
    network,
    rankedBody(network, [
      { name: "a", url: A },
      { name: "b", url: B },
      { name: "c", url: C },
    ]),
  );
});

test("circuit breaker: failure skips the endpoint, backoff doubles with jitter, a half-open trial restores rank", async () => {
  let now = 1_000_000;
  let rand = 1; // jitter at its maximum: the wait is exactly the ceiling
  const changes: string[][] = [];
  const picker = createEndpointPicker({
    network: "ethereum-mainnet",
    apiBase: api.url,
    refreshMs: 0,
    now: () => now,
    random: () => rand,
    breaker: { baseMs: 1000, maxMs: 8000 },
  });
  await picker.ready();
  picker.onChange((urls) => changes.push(urls));
  assert.equal(picker.current()?.url, A);

  picker.reportFailure(A, "http");
  assert.equal(picker.current()?.url, B);
  assert.deepEqual(picker.urls(), [B, C, A], "an open endpoint goes last, not away");
  assert.deepEqual(changes.at(-1), [B, C, A]);
  let a = picker.health().find((h) => h.url === A);
  assert.equal(a?.state, "open");
  assert.equal(a?.openUntil, now + 1000);

  now += 1000; // the wait ran out: half-open, back at its rank for one trial
  assert.equal(picker.current()?.url, A);
  assert.equal(picker.health().find((h) => h.url === A)?.state, "half-open");
  picker.reportFailure(A, "timeout"); // failed trial: twice the wait
  a = picker.health().find((h) => h.url === A);
  assert.equal(a?.openUntil, now + 2000);
  assert.equal(a?.lastFailure, "timeout");
  picker.reportFailure(A, "timeout"); // failures while open do not push the retry further
  assert.equal(picker.health().find((h) => h.url === A)?.openUntil, now + 2000);

  now += 2000;
  rand = 0; // jitter at its minimum: half the ceiling
  picker.reportFailure(A, "error");
  assert.equal(picker.health().find((h) => h.url === A)?.openUntil, now + 2000, "ceiling 4000, half of it");

  now += 2000;
  assert.equal(picker.current()?.url, A, "half-open again");
  picker.claimAttempt(A, 500); // one caller takes the trial...
  assert.equal(picker.current()?.url, B, "...so the others skip A meanwhile");
  now += 500;
  assert.equal(picker.current()?.url, A, "a trial that never reports frees A after its lease");
  picker.claimAttempt(A, 500);
  picker.reportSuccess(A, 42);
  a = picker.health().find((h) => h.url === A);
  assert.equal(a?.state, "closed");
  assert.equal(a?.opens, 0);
  assert.equal(a?.latencyMs, 42);
  assert.equal(picker.current()?.url, A);
  assert.deepEqual(changes.at(-1), [A, B, C]);
  picker.close();
});

test("backoff is capped at maxMs", () => {
  const view = new HealthView({ baseMs: 1000, maxMs: 8000, random: () => 1 });
  assert.deepEqual(
    [1, 2, 3, 4, 5, 9].map((n) => view.backoffMs(n)),
    [1000, 2000, 4000, 8000, 8000, 8000],
  );
});

test("stale head: an endpoint more than maxLagBlocks behind the best head seen is treated as failing", async () => {
  const picker = createEndpointPicker({ network: "ethereum-mainnet", apiBase: api.url, refreshMs: 0, maxLagBlocks: 3 });
  await picker.ready();
  assert.equal(picker.reportHead(B, 1000), false);
  assert.equal(picker.reportHead(A, 997), false, "3 behind is within the limit");
  assert.equal(picker.current()?.url, A);
  assert.equal(picker.reportHead(A, 996), true, "4 behind is stale");
  assert.equal(picker.current()?.url, B);
  assert.equal(picker.health().find((h) => h.url === A)?.lastFailure, "stale-head");
  picker.reportSuccess(A, 10);
  assert.equal(picker.health().find((h) => h.url === A)?.state, "open", "an answer alone does not clear a stale head");
  assert.equal(picker.isStaleHead(990), true);
  assert.equal(picker.reportHead(A, 1001), false, "caught up");
  assert.equal(picker.current()?.url, A);
  picker.close();
});

test("a network not ranked yet (updatedAt null, no endpoints) is valid, but never empties a usable list", async () => {
  api.setBody("kusama", {
    network: "kusama",
    window: "24h",
    region: "all",
    scoringVersion: "1",
    updatedAt: null,
    endpoints: [],
  });
  const bare = createEndpointPicker({ network: "kusama", apiBase: api.url, refreshMs: 0 });
  await bare.ready();
  assert.equal(bare.lastError, null);
  assert.equal(bare.source, "api");
  assert.equal(bare.list()?.updatedAt, null);
  assert.equal(bare.current(), undefined);
  bare.close();

  const withFallback = createEndpointPicker({
    network: "kusama",
    apiBase: api.url,
    refreshMs: 0,
    fallback: ["https://fb.test"],
  });
  await withFallback.ready();
  assert.equal(withFallback.source, "fallback", "an empty answer does not replace endpoints the app can use");
  assert.match(String(withFallback.lastError), /no endpoint matching/);
  assert.equal(withFallback.current()?.url, "https://fb.test");
  withFallback.close();
});

test("dead endpoints are kept but tried last", async () => {
  api.setBody(
    "polkadot",
    rankedBody("polkadot", [
      { name: "d", url: "https://dead.test", status: "dead" },
      { name: "w", url: "https://dead-in-window.test", health: "dead" },
      { name: "p", url: "https://probation.test", status: "probation", health: "probation" },
    ]),
  );
  const picker = createEndpointPicker({ network: "polkadot", apiBase: api.url, refreshMs: 0 });
  await picker.ready();
  assert.deepEqual(picker.urls(), ["https://probation.test", "https://dead.test", "https://dead-in-window.test"]);
  assert.equal(picker.candidates()[0]?.health, "probation");
  assert.deepEqual(picker.candidates()[0]?.features, ["batch", "cors"]);
  picker.close();
});

test("periodic refresh picks up a new order; close() stops it", async () => {
  const network = "ethereum-sepolia";
  api.setBody(
    network,
    rankedBody(network, [
      { name: "a", url: A },
      { name: "b", url: B },
    ]),
  );
  const picker = createEndpointPicker({ network, apiBase: api.url, refreshMs: 300 });
  await picker.ready();
  assert.deepEqual(picker.urls(), [A, B]);
  const seen = new Promise<string[]>((resolve) => picker.onChange(resolve));
  api.setBody(
    network,
    rankedBody(network, [
      { name: "b", url: B },
      { name: "a", url: A },
    ]),
  );
  assert.deepEqual(await seen, [B, A]);
  picker.close();
  const count = api.requests.filter((r) => r.includes(network)).length;
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(api.requests.filter((r) => r.includes(network)).length, count, "no request after close()");
});

test("the API request times out after timeoutMs and the picker stays usable on its fallback", async () => {
  const hanging = createEndpointPicker({
    network: "hive",
    apiBase: api.url,
    refreshMs: 0,
    timeoutMs: 150,
    fallback: ["https://fb.test"],
    fetch: (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
  });
  const started = Date.now();
  await hanging.ready();
  assert.ok(Date.now() - started < 1000);
  assert.equal(hanging.source, "fallback");
  assert.equal(hanging.current()?.url, "https://fb.test");
  hanging.close();
});
