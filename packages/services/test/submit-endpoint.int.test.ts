import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { listDirectoryEndpoints } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import type { ResolvedAddress, Resolver } from "@rpcpulse/prober";
import { submitEndpoint } from "@rpcpulse/services/directory";

/** A scripted DNS: name → answers; a code instead of answers throws like dns.lookup does. */
function fakeDns(map: Record<string, string[] | "ENOTFOUND" | "EAI_AGAIN">): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const entry = map[host] ?? "ENOTFOUND";
    if (typeof entry === "string")
      throw Object.assign(new Error(`getaddrinfo ${entry} ${host}`), { code: entry, hostname: host });
    return entry.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked });
}

const DNS = fakeDns({
  "rpc.good.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "127.0.0.1.nip.io": ["127.0.0.1"],
  "localtest.me": ["127.0.0.1", "::1"],
  "169.254.169.254.nip.io": ["169.254.169.254"],
  "metadata-v6.example": ["fd00:ec2::254"],
  "ten.example": ["10.1.2.3"],
  "cgnat.example": ["100.64.0.7"],
  "link-local.example": ["169.254.10.10"],
  "ula.example": ["fd12:3456::1"],
  "v6-link-local.example": ["fe80::1"],
  "mapped-loopback.example": ["::ffff:127.0.0.1"],
  "mapped-metadata.example": ["::ffff:169.254.169.254"],
  "nat64-private.example": ["64:ff9b::a00:1"],
  "zero.example": ["0.0.0.0"],
  "doc.example": ["192.0.2.10"],
  "reserved.example": ["240.0.0.1"],
  "v6-loopback.example": ["::1"],
  "mixed.example": ["93.184.215.14", "10.0.0.1"],
  "nxdomain.example": "ENOTFOUND",
  "servfail.example": "EAI_AGAIN",
});

describe("submitting an endpoint: its name is resolved by the prober's policy before it is listed", () => {
  let db: TestDatabase;
  let user = 0;
  /** A fresh user per call: the per-user hourly limit is not what these tests are about. */
  const submit = (url: string, extra: { allowPrivate?: boolean; resolver?: Resolver } = {}) =>
    submitEndpoint(
      { sql: db.pool, resolver: DNS, ...extra },
      { userId: `u${++user}`, endpoint: { url, network: "hive" } },
    );
  const refusal = async (url: string, extra: { allowPrivate?: boolean; resolver?: Resolver } = {}) => {
    try {
      await submit(url, extra);
    } catch (error) {
      assert.ok(isAppError(error), String(error));
      return { code: error.code, status: error.httpStatus, message: error.message, field: error.details?.field };
    }
    assert.fail(`${url} was accepted`);
  };

  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  test("a name resolving to loopback, metadata, private, link-local or reserved space is refused with the reason", async () => {
    const cases: Array<[string, RegExp]> = [
      ["https://127.0.0.1.nip.io", /127\.0\.0\.1\.nip\.io resolves to 127\.0\.0\.1 \(loopback\)/],
      ["https://localtest.me", /localtest\.me resolves to 127\.0\.0\.1 \(loopback\)/],
      ["http://169.254.169.254.nip.io", /resolves to 169\.254\.169\.254 \(metadata\)/],
      ["https://metadata-v6.example", /resolves to fd00:ec2::254 \(metadata\)/],
      ["https://ten.example", /resolves to 10\.1\.2\.3 \(private\)/],
      ["https://cgnat.example", /\(cgnat\)/],
      ["https://link-local.example", /resolves to 169\.254\.10\.10 \(link_local\)/],
      ["https://ula.example", /resolves to fd12:3456::1 \(private\)/],
      ["https://v6-link-local.example", /\(link_local\)/],
      ["https://v6-loopback.example", /resolves to ::1 \(loopback\)/],
      ["https://mapped-loopback.example", /resolves to ::ffff:127\.0\.0\.1 \(loopback\)/],
      ["https://mapped-metadata.example", /\(metadata\)/],
      ["https://nat64-private.example", /\(private\)/],
      ["https://zero.example", /\(unspecified\)/],
      ["https://doc.example", /\(documentation\)/],
      ["https://reserved.example", /\(reserved\)/],
      ["https://mixed.example", /resolves to 10\.0\.0\.1 \(private\)/],
    ];
    for (const [url, reason] of cases) {
      const r = await refusal(url);
      assert.equal(r.code, "VALIDATION", url);
      assert.equal(r.status, 400, `${url}: a 4xx through the adapters' AppError mapping`);
      assert.equal(r.field, "url");
      assert.match(r.message, /^URL refused: /, url);
      assert.match(r.message, reason, url);
    }
    assert.equal((await listDirectoryEndpoints(db.pool)).length, 0, "nothing refused was listed");
  });

  test("a name that does not resolve is refused; a DNS failure for now is a 503 to retry", async () => {
    const nx = await refusal("https://nxdomain.example");
    assert.deepEqual([nx.code, nx.status, nx.field], ["VALIDATION", 400, "url"]);
    assert.match(nx.message, /nxdomain\.example does not resolve \(ENOTFOUND\)/);
    const empty = await refusal("https://rpc.good.example", { resolver: async () => [] });
    assert.match(empty.message, /no address for rpc\.good\.example/);
    const later = await refusal("https://servfail.example");
    assert.deepEqual([later.code, later.status, later.field], ["UNAVAILABLE", 503, "url"]);
    assert.match(later.message, /try again/i);
    assert.equal((await listDirectoryEndpoints(db.pool)).length, 0);
  });

  test("literal addresses stay refused before any look-up (IPv6 and IPv4-mapped forms included)", async () => {
    const before = DNS.asked.length;
    for (const url of [
      "http://127.0.0.1:8091",
      "http://[::1]:8545",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://169.254.169.254/",
      "http://0x7f000001/",
      "http://localhost:8091",
    ])
      assert.equal((await refusal(url)).code, "VALIDATION", url);
    assert.equal(DNS.asked.length, before, "static refusals need no DNS");
  });

  test("a public name is listed on probation, resolved once", async () => {
    const ok = await submit("https://rpc.good.example/");
    assert.deepEqual([ok.url, ok.status], ["https://rpc.good.example", "probation"]);
    assert.equal(DNS.asked.at(-1), "rpc.good.example");
    assert.equal((await listDirectoryEndpoints(db.pool, { ids: [ok.id] }))[0]?.url, "https://rpc.good.example");
  });

  test("with PROBE_ALLOW_PRIVATE (demo, tests) loopback may be listed; metadata never", async () => {
    const open = { allowPrivate: true };
    const byName = await submit("https://localtest.me/demo", open);
    assert.equal(byName.url, "https://localtest.me/demo");
    const literal = await submit("http://127.0.0.1:18091", open);
    assert.equal(literal.url, "http://127.0.0.1:18091", "any port, as the prober's client allows with allowPrivate");
    // No resolver given: the system one, as in the e2e stack (localhost is in /etc/hosts).
    const local = await submitEndpoint(
      { sql: db.pool, allowPrivate: true },
      { userId: `u${++user}`, endpoint: { url: "http://localhost:18099/e2e", network: "hive" } },
    );
    assert.equal(local.url, "http://localhost:18099/e2e");
    assert.match((await refusal("http://169.254.169.254.nip.io", open)).message, /\(metadata\)/);
    assert.match((await refusal("http://169.254.169.254/", open)).message, /metadata/);
    assert.match((await refusal("https://reserved.example", open)).message, /\(reserved\)/);
    assert.match((await refusal("https://nxdomain.example", open)).message, /does not resolve/);
  });
});
