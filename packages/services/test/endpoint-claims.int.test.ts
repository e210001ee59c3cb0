import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { insertNodeSamples, insertProbeResults, ensureVantagePoint } from "@rpcpulse/db";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  claimEndpoint,
  getEndpointDetail,
  listEndpointClaims,
  verifyEndpointClaim,
  withdrawEndpointClaim,
  type ServiceContext,
} from "../src/index.js";
import { startTxtDnsServer, type TxtDnsServer } from "./support/txt-dns-server.js";

/**
 * Claiming listed endpoints on real PostgreSQL, with DNS answers from a real (local, UDP) DNS server
 * through node's resolver, and agent evidence as real node_samples and probe_results rows.
 */
describe("directory: claiming endpoints", () => {
  let db: TestDatabase;
  let dns: TxtDnsServer;
  let clock = Date.now();
  const deps = () => ({ sql: db.pool, resolveTxt: (n: string) => dns.resolveTxt(n), now: () => new Date(clock) });
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
      orgs[k] = `org_${k}_${randomBytes(4).toString("hex")}`;
      await db.pool.query("INSERT INTO organizations (id, name, slug) VALUES ($1, $2, $1)", [
        orgs[k],
        `Org ${k.toUpperCase()}`,
      ]);
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
    assert.equal(detail.operatorVerified, false, "a DNS claim alone is not an agent");

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

  test("through the agent: public URL host:port of a reporting node and a matching head make it operator verified", async () => {
    clock = Date.now();
    const node = (
      await db.pool.query<{ id: string }>(
        `INSERT INTO nodes (organization_id, network_id, api_family, client_name, name, local_rpc_url, public_url, last_seen_at)
         VALUES ($1, $2, 'hive', 'hived', 'witness-1', 'http://127.0.0.1:8091', 'http://203.0.113.7:8091/', $3) RETURNING id`,
        [orgs.b, hiveNetwork, new Date(clock - 20_000)],
      )
    ).rows[0]!.id;
    const claim = await claimEndpoint(deps(), ctx("b"), { endpoint: ipEndpoint });
    const noProbe = await verifyEndpointClaim(deps(), ctx("b"), { claimId: claim.id, method: "agent" });
    assert.match(noProbe.lastError ?? "", /no recent successful probe/);

    // The node's agent saw block 1000 ten seconds ago; the endpoint answered 1003 now (3 s blocks).
    await insertNodeSamples(db.pool, [{ time: new Date(clock - 10_000), nodeId: node, headBlock: 1_000 }]);
    const vp = await ensureVantagePoint(db.pool, { name: "server:test", region: "eu-central", kind: "server" });
    const probe = (block: number, at: number) => ({
      time: new Date(at),
      endpointId: ipEndpoint,
      vantagePointId: vp.id,
      ok: true,
      headBlock: block,
      totalMs: 20,
    });
    await insertProbeResults(db.pool, [probe(1_400, clock - 1_000)]);
    tick();
    const far = await verifyEndpointClaim(deps(), ctx("b"), { claimId: claim.id, method: "agent" });
    assert.match(far.lastError ?? "", /does not match the head your agent reports for witness-1/);
    assert.equal(far.status, "pending");

    // Org A has no node on that host: its agent claim fails whatever the heads.
    const claimA = await claimEndpoint(deps(), ctx("a"), { endpoint: ipEndpoint });
    const aCheck = await verifyEndpointClaim(deps(), ctx("a"), { claimId: claimA.id, method: "agent" });
    assert.match(aCheck.lastError ?? "", /None of your nodes has a public URL on 203\.0\.113\.7:8091/);

    await insertProbeResults(db.pool, [probe(1_003, clock - 500)]);
    tick();
    const ok = await verifyEndpointClaim(deps(), ctx("b"), { claimId: claim.id, method: "agent" });
    assert.equal(ok.status, "verified");
    assert.equal(ok.verifiedMethod, "agent");
    const detail = await getEndpointDetail({ sql: db.pool, now: () => new Date(clock) }, { endpointId: ipEndpoint });
    assert.equal(detail.claimedBy, "Org B");
    assert.equal(detail.operatorVerified, true, "the claiming node's agent reports");

    // When the agent stops reporting, the claim stays but the mark goes.
    await db.pool.query("UPDATE nodes SET last_seen_at = $2 WHERE id = $1", [node, new Date(clock - 3_600_000)]);
    const later = await getEndpointDetail({ sql: db.pool, now: () => new Date(clock) }, { endpointId: ipEndpoint });
    assert.equal(later.claimedBy, "Org B");
    assert.equal(later.operatorVerified, false);
  });
});
