import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient, type Resolver } from "@rpcpulse/prober";
import {
  claimEndpoint,
  getEndpointDetail,
  listEndpointClaims,
  verifyEndpointClaim,
  type ClaimHttpClient,
} from "@rpcpulse/services/directory";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startClaimFileServer, type ClaimFileServer } from "./support/claim-file-server.js";

/**
 * The well-known file proof on real PostgreSQL: each endpoint's host is served by a local HTTPS server
 * (its certificate trusted by the test's client, every name resolved to 127.0.0.1), fetched through
 * the prober's SSRF-safe client exactly as the app does, private-address refusal included.
 */
const HOSTS = ["wk-ok.example.test", "wk-wrong.example.test", "wk-missing.example.test", "wk-moved.example.test"];

describe("directory: claiming endpoints by the well-known file", () => {
  let db: TestDatabase;
  let server: ClaimFileServer;
  let clock = Date.now();
  const tick = () => (clock += 6_000);
  const orgs: Record<"a" | "b", string> = { a: "", b: "" };
  const endpoints: Record<string, string> = {};
  const ctx = (org: "a" | "b"): ServiceContext => ({
    userId: `user_${org}`,
    organizationId: orgs[org],
    organizationSlug: orgs[org],
    role: "admin",
  });
  const loopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
  /** The demo/test override (PROBE_ALLOW_PRIVATE style): loopback is reachable. */
  let allowing: ClaimHttpClient;
  /** Production: private addresses refused (any port, so the address is what refuses it). */
  let strict: ClaimHttpClient;
  const deps = (http: ClaimHttpClient = allowing) => ({
    sql: db.pool,
    resolveTxt: async (): Promise<string[][]> => [],
    http,
    now: () => new Date(clock),
  });
  const urlOf = (host: string) => `https://${host}:${server.port}/rpc`;
  const fileOf = (host: string) => `https://${host}:${server.port}/.well-known/rpcpulse-claim`;

  before(async () => {
    db = await createTestDatabase();
    server = await startClaimFileServer(HOSTS);
    allowing = createSafeHttpClient({ allowPrivate: true, ca: server.cert, resolver: loopback, timeoutMs: 3_000 });
    strict = createSafeHttpClient({ ca: server.cert, resolver: loopback, allowedPorts: "any", timeoutMs: 3_000 });
    for (const k of ["a", "b"] as const) {
      orgs[k] = (await createTestOrg(db, { name: `Org ${k.toUpperCase()}` })).id;
    }
    const network = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    for (const host of HOSTS) {
      endpoints[host] = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $2, 'active') RETURNING id`,
          [network, urlOf(host)],
        )
      ).rows[0]!.id;
    }
  });
  after(async () => {
    await server?.close();
    await db?.drop();
  });

  const verify = (org: "a" | "b", claimId: string, http?: ClaimHttpClient) => {
    tick();
    return verifyEndpointClaim(deps(http), ctx(org), { claimId, method: "well-known" });
  };

  test("the endpoint serves the token: verified, claimed, operator verified", async () => {
    const host = "wk-ok.example.test";
    const claim = await claimEndpoint(deps(), ctx("a"), { endpoint: endpoints[host]! });
    assert.equal(claim.wellKnownUrl, fileOf(host), "same origin as the https endpoint");
    assert.equal(claim.wellKnownBody, claim.dnsValue);
    const before = await getEndpointDetail({ sql: db.pool }, { endpointId: endpoints[host]! });
    assert.equal(before.operatorVerified, false);

    server.files.set(host, { status: 200, body: `${claim.wellKnownBody}\n` });
    const ok = await verify("a", claim.id);
    assert.equal(ok.status, "verified");
    assert.equal(ok.verifiedMethod, "well-known");
    assert.equal(ok.holds, true);
    assert.equal(ok.lastError, null);
    assert.ok(server.requests.includes(`${host} /.well-known/rpcpulse-claim`), "fetched from the endpoint's host");
    const detail = await getEndpointDetail({ sql: db.pool }, { endpointId: endpoints[host]! });
    assert.equal(detail.claimedBy, "Org A");
    assert.equal(detail.operatorVerified, true);
  });

  test("a wrong token, a file without one, a 404 and a redirect do not verify", async () => {
    const wrongHost = "wk-wrong.example.test";
    const claim = await claimEndpoint(deps(), ctx("a"), { endpoint: endpoints[wrongHost]! });
    server.files.set(wrongHost, { status: 200, body: `rpcpulse-claim=${"0".repeat(32)}\n` });
    const wrong = await verify("a", claim.id);
    assert.equal(wrong.status, "pending");
    assert.equal(wrong.lastError, `${fileOf(wrongHost)} carries another claim token.`);
    server.files.set(wrongHost, { status: 200, body: "hello\n" });
    assert.match((await verify("a", claim.id)).lastError ?? "", /does not contain the claim token/);
    server.files.set(wrongHost, { status: 500, body: claim.wellKnownBody });
    assert.match(
      (await verify("a", claim.id)).lastError ?? "",
      /answered HTTP 500/,
      "the token in an error is no proof",
    );

    const missing = await claimEndpoint(deps(), ctx("a"), { endpoint: endpoints["wk-missing.example.test"]! });
    const notFound = await verify("a", missing.id);
    assert.equal(notFound.status, "pending");
    assert.equal(notFound.lastError, `${fileOf("wk-missing.example.test")} answered HTTP 404.`);

    // A redirect is not followed, even to a place that serves the token.
    const movedHost = "wk-moved.example.test";
    const moved = await claimEndpoint(deps(), ctx("a"), { endpoint: endpoints[movedHost]! });
    server.files.set("wk-ok.example.test", { status: 200, body: moved.wellKnownBody });
    server.files.set(movedHost, { status: 302, body: "", headers: { location: fileOf("wk-ok.example.test") } });
    const before = server.requests.length;
    const redirected = await verify("a", moved.id);
    assert.equal(redirected.status, "pending");
    assert.match(redirected.lastError ?? "", /answered a redirect \(HTTP 302\)/);
    assert.deepEqual(server.requests.slice(before), [`${movedHost} /.well-known/rpcpulse-claim`]);
    for (const host of [wrongHost, "wk-missing.example.test", movedHost]) {
      assert.equal((await getEndpointDetail({ sql: db.pool }, { endpointId: endpoints[host]! })).claimedBy, null);
    }
  });

  test("a private address is refused (no connection) unless the deployment allows it", async () => {
    const host = "wk-missing.example.test";
    const [claim] = (await listEndpointClaims(deps(), ctx("a"))).filter((c) => c.endpointId === endpoints[host]);
    assert.ok(claim);
    server.files.set(host, { status: 200, body: claim.wellKnownBody });
    const before = server.requests.length;
    const refused = await verify("a", claim.id, strict);
    assert.equal(refused.status, "pending");
    assert.match(refused.lastError ?? "", /was not fetched: the address is not public .*127\.0\.0\.1 \(loopback\)/);
    assert.equal(server.requests.length, before, "the server was never reached");
    // The default policy refuses it too (a port outside the public list, before any DNS).
    const byPort = await verify("a", claim.id, createSafeHttpClient({ ca: server.cert, resolver: loopback }));
    assert.match(
      byPort.lastError ?? "",
      /was not fetched: the address is not public \(port \d+ not in the allowed list\)/,
    );
    const allowed = await verify("a", claim.id, allowing);
    assert.equal(allowed.status, "verified");
    assert.equal(allowed.holds, true);
  });

  test("a later proof by another organization takes the endpoint over; the holder sees it lost", async () => {
    const host = "wk-ok.example.test";
    const claimB = await claimEndpoint(deps(), ctx("b"), { endpoint: endpoints[host]! });
    server.files.set(host, { status: 200, body: "rpcpulse-claim=nobody-in-particular\n" });
    const failed = await verify("b", claimB.id);
    assert.equal(failed.holds, false);
    assert.equal((await getEndpointDetail({ sql: db.pool }, { endpointId: endpoints[host]! })).claimedBy, "Org A");

    server.files.set(host, { status: 200, body: claimB.wellKnownBody });
    const taken = await verify("b", claimB.id);
    assert.equal(taken.status, "verified");
    assert.equal(taken.holds, true);
    const detail = await getEndpointDetail({ sql: db.pool }, { endpointId: endpoints[host]! });
    assert.equal(detail.claimedBy, "Org B");
    assert.equal(detail.operatorVerified, true);
    const lost = (await listEndpointClaims(deps(), ctx("a"))).find((c) => c.endpointId === endpoints[host])!;
    assert.equal(lost.status, "verified");
    assert.equal(lost.holds, false, "A's claim shows as taken over");
  });
});
