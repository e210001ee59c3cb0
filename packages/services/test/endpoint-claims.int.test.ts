import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults, ensureVantagePoint } from "@rpcpulse/db/directory";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import {
  claimEndpoint,
  getEndpointDetail,
  listEndpointClaims,
  verifyEndpointClaim,
  withdrawEndpointClaim,
} from "@rpcpulse/services/directory";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startTxtDnsServer, type TxtDnsServer } from "./support/txt-dns-server.js";

/**
 * Claiming listed endpoints on real PostgreSQL, with DNS answers from a real (local, UDP) DNS server
 * through node's resolver; what an agent reports (node_samples, probe_results, a node's public URL) is
 * real rows too, and proves nothing. The well-known file proof: endpoint-claims-well-known.int.test.ts.
 */
describe("directory: claiming endpoints", () => {
  let db: TestDatabase;
  let dns: TxtDnsServer;
  let clock = Date.now();
  // No test here fetches a well-known file: the strict default client (public addresses only).
  const http = createSafeHttpClient({ timeoutMs: 1_000 });
  const deps = () => ({
    sql: db.pool,
    resolveTxt: (n: string) => dns.resolveTxt(n),
    http,
    now: () => new Date(clock),
  });
  const tick = () => (clock += 6_000);
  const orgs: Record<"a" | "b", string> = { a: "", b: "" };
  const ctx = (org: "a" | "b", role: ServiceContext["role"] = "admin"): ServiceContext => ({
    userId: `user_${org}`,
    organizationId: orgs[org],
    organizationSlug: orgs[org],
    role,
  });
  let dnsEndpoint = "";
  let ipEndpoint = "";
  let hiveNetwork = "";

  const rejects = async (fn: () => Promise<unknown>, code: string) =>
    assert.rejects(fn, (e: unknown) => isAppError(e) && e.code === code);

  before(async () => {
    db = await createTestDatabase();
    dns = await startTxtDnsServer();
    for (const k of ["a", "b"] as const) {
      orgs[k] = (await createTestOrg(db, { name: `Org ${k.toUpperCase()}` })).id;
    }
    hiveNetwork = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    const insert = async (url: string) =>
      (
        await db.pool.query<{ id: string }>(
          `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $2, 'active') RETURNING id`,
          [hiveNetwork, url],
        )
      ).rows[0]!.id;
    dnsEndpoint = await insert("https://api.hive.example.org/rpc");
    ipEndpoint = await insert("http://203.0.113.7:8091");
  });
  after(async () => {
    await dns?.close();
    await db?.drop();
  });

  test("DNS TXT: pending until _rpcpulse.<host> carries rpcpulse-claim=<token>; then the org is shown", async () => {
    const claim = await claimEndpoint(deps(), ctx("a"), { endpoint: dnsEndpoint });
    assert.equal(claim.status, "pending");
    assert.equal(claim.dnsName, "_rpcpulse.api.hive.example.org");
    assert.match(claim.dnsValue, /^rpcpulse-claim=[0-9a-f]{32}$/);
    const again = await claimEndpoint(deps(), ctx("a"), { endpoint: "https://api.hive.example.org/rpc" });
    assert.equal(again.dnsValue, claim.dnsValue, "claiming twice (by URL) shows the same token");

    const missing = await verifyEndpointClaim(deps(), ctx("a"), { claimId: claim.id, method: "dns" });
    assert.equal(missing.status, "pending");
    assert.match(missing.lastError ?? "", /No TXT record found at _rpcpulse\.api\.hive\.example\.org/);
    assert.ok(dns.queries.includes("_rpcpulse.api.hive.example.org"), "the DNS server was asked");

    await rejects(() => verifyEndpointClaim(deps(), ctx("a"), { claimId: claim.id, method: "dns" }), "RATE_LIMITED");
    tick();
    dns.records.set("_rpcpulse.api.hive.example.org", [["v=spf1 -all"], ["rpcpulse-claim=0000"]]);
    const wrong = await verifyEndpointClaim(deps(), ctx("a"), { claimId: claim.id, method: "dns" });
    assert.equal(wrong.status, "pending");
    assert.match(wrong.lastError ?? "", /another claim token/);
    assert.equal((await getEndpointDetail(deps(), { endpointId: dnsEndpoint })).claimedBy, null);

    tick();
    const value = claim.dnsValue;
    dns.records.set("_rpcpulse.api.hive.example.org", [["v=spf1 -all"], [value.slice(0, 20), value.slice(20)]]);
    const ok = await verifyEndpointClaim(deps(), ctx("a"), { claimId: claim.id, method: "dns" });
    assert.equal(ok.status, "verified");
    assert.equal(ok.verifiedMethod, "dns");
    assert.equal(ok.holds, true);
    assert.equal(ok.lastError, null);
    const detail = await getEndpointDetail(deps(), { endpointId: dnsEndpoint });
    assert.equal(detail.claimedBy, "Org A");
    assert.equal(detail.operatorVerified, true, "a verified claim is what makes it operator verified");

    const ipClaim = await claimEndpoint(deps(), ctx("a"), { endpoint: ipEndpoint });
    assert.equal(ipClaim.dnsName, null);
    const ipCheck = await verifyEndpointClaim(deps(), ctx("a"), { claimId: ipClaim.id, method: "dns" });
    assert.match(ipCheck.lastError ?? "", /IP address/);
  });

  test("tenant isolation and roles: another org cannot see, verify or withdraw; viewers cannot claim", async () => {
    const [claimA] = await listEndpointClaims(deps(), ctx("a"));
    assert.ok(claimA);
    assert.deepEqual(await listEndpointClaims(deps(), ctx("b")), []);
    tick();
    await rejects(() => verifyEndpointClaim(deps(), ctx("b"), { claimId: claimA.id, method: "dns" }), "NOT_FOUND");
    await rejects(() => withdrawEndpointClaim(deps(), ctx("b"), { claimId: claimA.id }), "NOT_FOUND");
    // A malformed claim id names nothing, like another organization's.
    await rejects(() => verifyEndpointClaim(deps(), ctx("b"), { claimId: "not-a-uuid", method: "dns" }), "NOT_FOUND");
    await rejects(() => withdrawEndpointClaim(deps(), ctx("b"), { claimId: "not-a-uuid" }), "NOT_FOUND");
    await rejects(() => claimEndpoint(deps(), ctx("b", "viewer"), { endpoint: dnsEndpoint }), "FORBIDDEN");
    await rejects(
      () => verifyEndpointClaim(deps(), ctx("a", "viewer"), { claimId: claimA.id, method: "dns" }),
      "FORBIDDEN",
    );
    await rejects(() => claimEndpoint(deps(), ctx("b"), { endpoint: "not-a-uuid" }), "NOT_FOUND");
    await rejects(
      () => claimEndpoint(deps(), ctx("b"), { endpoint: "00000000-0000-4000-8000-000000000000" }),
      "NOT_FOUND",
    );
    assert.equal((await listEndpointClaims(deps(), ctx("a", "viewer"))).length, 2, "viewers may look");

    // B's own claim with B's own (current) TXT proof takes the endpoint over; A still sees its claim, not holding.
    const claimB = await claimEndpoint(deps(), ctx("b"), { endpoint: dnsEndpoint });
    assert.notEqual(claimB.dnsValue, claimA.dnsValue);
    dns.records.set("_rpcpulse.api.hive.example.org", [[claimB.dnsValue]]);
    const verifiedB = await verifyEndpointClaim(deps(), ctx("b"), { claimId: claimB.id, method: "dns" });
    assert.equal(verifiedB.holds, true);
    assert.equal((await getEndpointDetail(deps(), { endpointId: dnsEndpoint })).claimedBy, "Org B");
    const aNow = (await listEndpointClaims(deps(), ctx("a"))).find((c) => c.id === claimA.id)!;
    assert.equal(aNow.holds, false);
    // A withdrawing its claim does not unclaim B's endpoint; B withdrawing does.
    await withdrawEndpointClaim(deps(), ctx("a"), { claimId: claimA.id });
    assert.equal((await getEndpointDetail(deps(), { endpointId: dnsEndpoint })).claimedBy, "Org B");
    await withdrawEndpointClaim(deps(), ctx("b"), { claimId: claimB.id });
    assert.equal((await getEndpointDetail(deps(), { endpointId: dnsEndpoint })).claimedBy, null);
  });

  test("an agent alone never verifies a claim, never takes an endpoint over, never makes it operator verified", async () => {
    tick();
    // Org B's node names the IP endpoint's exact URL as its public URL, reports now, and its head
    // matches the endpoint's probed head: everything the old agent method accepted.
    const node = (
      await createTestNode(db, {
        organizationId: orgs.b!,
        networkId: hiveNetwork,
        name: "witness-1",
        publicUrl: "http://203.0.113.7:8091",
        lastSeenAt: new Date(clock - 5_000),
      })
    ).id;
    await insertNodeSamples(db.pool, [{ time: new Date(clock - 10_000), nodeId: node, headBlock: 1_000 }]);
    const vp = await ensureVantagePoint(db.pool, { name: "server:test", region: "eu-central", kind: "server" });
    await insertProbeResults(db.pool, [
      {
        time: new Date(clock - 500),
        endpointId: ipEndpoint,
        vantagePointId: vp.id,
        ok: true,
        headBlock: 1_003,
        totalMs: 20,
      },
    ]);
    const read = { sql: db.pool, now: () => new Date(clock) };
    const unclaimed = await getEndpointDetail(read, { endpointId: ipEndpoint });
    assert.equal(unclaimed.claimedBy, null);
    assert.equal(unclaimed.operatorVerified, false, "a node's free-text public URL proves nothing");

    // The agent is no verification method any more: the call is refused and the claim stays unchecked.
    const claimB = (await listEndpointClaims(deps(), ctx("b"))).find((c) => c.endpointId === ipEndpoint);
    const pending = claimB ?? (await claimEndpoint(deps(), ctx("b"), { endpoint: ipEndpoint }));
    tick();
    await assert.rejects(
      () => verifyEndpointClaim(deps(), ctx("b"), { claimId: pending.id, method: "agent" as "dns" }),
      (e: unknown) => (e as Error).name === "ZodError",
    );
    const after = (await listEndpointClaims(deps(), ctx("b"))).find((c) => c.id === pending.id)!;
    assert.equal(after.status, "pending");
    assert.equal(after.lastCheckedAt, null, "nothing was checked");
    assert.equal((await getEndpointDetail(read, { endpointId: ipEndpoint })).claimedBy, null);

    // Org A holds the DNS endpoint by its TXT record; Org B's agent "runs" it (same URL, reporting):
    // B can neither verify nor take it over without a proof of its own.
    const claimA = await claimEndpoint(deps(), ctx("a"), { endpoint: dnsEndpoint });
    dns.records.set("_rpcpulse.api.hive.example.org", [[claimA.dnsValue]]);
    tick();
    assert.equal((await verifyEndpointClaim(deps(), ctx("a"), { claimId: claimA.id, method: "dns" })).holds, true);
    await db.pool.query("UPDATE nodes SET public_url = $2 WHERE id = $1", [node, "https://api.hive.example.org/rpc"]);
    const claimB2 = await claimEndpoint(deps(), ctx("b"), { endpoint: dnsEndpoint });
    tick();
    await assert.rejects(
      () => verifyEndpointClaim(deps(), ctx("b"), { claimId: claimB2.id, method: "agent" as "dns" }),
      (e: unknown) => (e as Error).name === "ZodError",
    );
    const dnsTry = await verifyEndpointClaim(deps(), ctx("b"), { claimId: claimB2.id, method: "dns" });
    assert.equal(dnsTry.status, "pending");
    assert.match(dnsTry.lastError ?? "", /another claim token/);
    const held = await getEndpointDetail(read, { endpointId: dnsEndpoint });
    assert.equal(held.claimedBy, "Org A", "the holder keeps it");
    assert.equal(held.operatorVerified, true, "A's verified claim, not B's agent");

    // Without a verified claim behind it, the endpoint is not operator verified, whatever agents report.
    await withdrawEndpointClaim(deps(), ctx("a"), { claimId: claimA.id });
    const released = await getEndpointDetail(read, { endpointId: dnsEndpoint });
    assert.equal(released.claimedBy, null);
    assert.equal(released.operatorVerified, false);
  });
});
