/**
 * Custom domains of status pages on real PostgreSQL: asking for a domain reserves nothing, the page
 * whose TXT record is verified serves it (unique among verified domains), and a later verification by
 * another page takes it over.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  createStatusPage,
  getPublicStatusPage,
  listStatusPages,
  setCustomDomain,
  verifyCustomDomain,
} from "@rpcpulse/services/status";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG_A = "org-domain-a";
const ORG_B = "org-domain-b";
const DOMAIN = "status.shared.example";
const ctxOf = (organizationId: string): ServiceContext => ({
  userId: `user-${organizationId}`,
  organizationId,
  organizationSlug: organizationId,
  role: "owner",
});
const a = ctxOf(ORG_A);
const b = ctxOf(ORG_B);

describe("status pages: custom domains", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  /** What the DNS answers at _rpcpulse-verify.<domain>. */
  let published: string[][] = [];
  const verifying = () => ({ ...deps, lookupTxt: async () => published });
  const pages: Record<"a" | "b", string> = { a: "", b: "" };
  const servedSlug = async (domain = DOMAIN) => {
    try {
      return (await getPublicStatusPage(deps, { domain }, { fresh: true })).page.slug;
    } catch (error) {
      if (isAppError(error) && error.code === "NOT_FOUND") return null;
      throw error;
    }
  };
  const verifiedOf = async (ctx: ServiceContext) => (await listStatusPages(deps, ctx))[0]!.domainVerified;

  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    for (const id of [ORG_A, ORG_B]) await createTestOrg(db, { id });
    pages.a = (await createStatusPage(deps, a, { slug: "alpha-status", title: "Alpha", isPublic: true })).id;
    pages.b = (await createStatusPage(deps, b, { slug: "bravo-status", title: "Bravo", isPublic: true })).id;
  });
  after(async () => {
    await db?.drop();
  });

  test("an unverified domain reserves nothing: another organization sets and verifies it and serves it", async () => {
    const asked = await setCustomDomain(deps, a, { pageId: pages.a, domain: DOMAIN });
    assert.equal(asked.domain, DOMAIN);
    assert.equal(await servedSlug(), null, "not served before verification");
    // B asks for the same domain: no conflict.
    const other = await setCustomDomain(deps, b, { pageId: pages.b, domain: DOMAIN.toUpperCase() });
    assert.equal(other.domain, DOMAIN);
    assert.notEqual(other.verifyToken, asked.verifyToken);

    published = [[asked.verifyToken!]];
    assert.deepEqual(await verifyCustomDomain(verifying(), b, { pageId: pages.b }), { verified: false });
    assert.equal(await servedSlug(), null, "A's record does not verify B's page");

    published = [[other.verifyToken!]];
    assert.deepEqual(await verifyCustomDomain(verifying(), b, { pageId: pages.b }), { verified: true });
    assert.equal(await servedSlug(), "bravo-status");
    assert.equal(await servedSlug(`${DOMAIN}:443`), "bravo-status");
    assert.equal(await verifiedOf(b), true);
    assert.equal(await verifiedOf(a), false, "A's request stays pending");
    assert.deepEqual(await verifyCustomDomain(verifying(), a, { pageId: pages.a }), { verified: false });
    assert.equal(await servedSlug(), "bravo-status", "the verified one wins");
  });

  test("a verified domain is unique: a later verification takes it over, the former page stops serving it", async () => {
    const again = await setCustomDomain(deps, a, { pageId: pages.a, domain: DOMAIN });
    published = [[again.verifyToken!]];
    assert.deepEqual(await verifyCustomDomain(verifying(), a, { pageId: pages.a }), { verified: true });
    assert.equal(await servedSlug(), "alpha-status");
    assert.equal(await verifiedOf(a), true);
    assert.equal(await verifiedOf(b), false, "B's page lost the domain (and sees it unverified)");
    const rows = await db.pool.query<{ slug: string; custom_domain: string | null; verified_domain: string | null }>(
      "SELECT slug, custom_domain, verified_domain FROM status_pages ORDER BY slug",
    );
    assert.deepEqual(rows.rows, [
      { slug: "alpha-status", custom_domain: DOMAIN, verified_domain: DOMAIN },
      { slug: "bravo-status", custom_domain: DOMAIN, verified_domain: null },
    ]);
    // The database holds the rule too: two pages cannot serve one domain.
    await assert.rejects(
      db.pool.query("UPDATE status_pages SET verified_domain = $1 WHERE id = $2", [DOMAIN, pages.b]),
      (e: unknown) => (e as { code?: string }).code === "23505",
    );
  });

  test("changing or removing the domain unverifies it; drafts are never served", async () => {
    await setCustomDomain(deps, a, { pageId: pages.a, domain: "other.shared.example" });
    assert.equal(await servedSlug(), null);
    assert.equal(await verifiedOf(a), false);
    const next = await setCustomDomain(deps, a, { pageId: pages.a, domain: DOMAIN });
    published = [[next.verifyToken!]];
    assert.deepEqual(await verifyCustomDomain(verifying(), a, { pageId: pages.a }), { verified: true });
    await db.prisma.statusPage.update({ where: { id: pages.a }, data: { isPublic: false } });
    assert.equal(await servedSlug(), null, "a draft page is not served on its domain");
    await db.prisma.statusPage.update({ where: { id: pages.a }, data: { isPublic: true } });
    await setCustomDomain(deps, a, { pageId: pages.a, domain: "" });
    assert.equal(await servedSlug(), null);
    assert.equal((await listStatusPages(deps, a))[0]!.customDomain, null);
  });
});
