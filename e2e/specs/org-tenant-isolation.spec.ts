import { expect, test } from "@playwright/test";
import {
  registerTenantPair,
  expectCallsRefused,
  expectPagesRefused,
  type CrossTenantCall,
} from "../fixtures/tenant-pair.js";

/**
 * Tenant isolation of the organization routes: members, invitations, endpoint claims, suggestions,
 * the fleet and advisor pages, and anonymous or cross-origin callers. Every org-scoped route, called
 * by a signed-in user of org A with org B's ids, must answer 403 or 404 and change nothing (shared
 * setup and the refusal checks: e2e/fixtures/tenant-pair.ts; status pages and alerting:
 * status-alerting-tenant-isolation.spec.ts).
 */
test.describe("tenant isolation", () => {
  const tenants = registerTenantPair();

  test("owner can use the routes of their own organization", async () => {
    const { alice } = tenants;
    const org = alice.organization.id;
    expect((await alice.api.get(`/api/orgs/${org}/nodes`)).status()).toBe(200);
    expect((await alice.api.get(`/api/orgs/${org}/members`)).status()).toBe(200);
    expect((await alice.api.get(`/api/orgs/${org}/invitations`)).status()).toBe(200);
    const suggestions = await alice.api.get(`/api/orgs/${org}/suggestions`);
    expect(suggestions.status()).toBe(200);
    expect(((await suggestions.json()) as { suggestions: unknown[] }).suggestions).toEqual([]);
    expect((await alice.api.get(`/app/o/${alice.organization.slug}/advisor/export`)).status()).toBe(200);
    const badAction = await alice.api.post(`/api/orgs/${org}/suggestions/00000000-0000-4000-8000-000000000000`, {
      data: { action: "explode" },
    });
    expect(badAction.status()).toBe(400);
    const invite = await alice.api.post(`/api/orgs/${org}/invitations`, {
      data: { email: "someone@e2e.rpcpulse.dev", role: "viewer" },
    });
    expect(invite.status()).toBe(201);
    expect(((await invite.json()) as { link: string }).link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
  });

  test("every org route refuses another organization's ids", async () => {
    const { alice, bob, bobMemberId } = tenants;
    const other = bob.organization.id;
    const bobClaim = await bob.api.post(`/api/orgs/${other}/endpoint-claims`, {
      data: { endpoint: "https://api.hive.blog" },
    });
    expect(bobClaim.status()).toBe(201);
    const claimId = ((await bobClaim.json()) as { claim: { id: string } }).claim.id;
    const calls: CrossTenantCall[] = [
      ["GET nodes", () => alice.api.get(`/api/orgs/${other}/nodes`)],
      ["GET members", () => alice.api.get(`/api/orgs/${other}/members`)],
      ["GET invitations", () => alice.api.get(`/api/orgs/${other}/invitations`)],
      [
        "POST invitations",
        () =>
          alice.api.post(`/api/orgs/${other}/invitations`, { data: { email: "x@e2e.rpcpulse.dev", role: "admin" } }),
      ],
      [
        "PATCH member",
        () => alice.api.patch(`/api/orgs/${other}/members/${bobMemberId}`, { data: { role: "viewer" } }),
      ],
      ["DELETE member", () => alice.api.delete(`/api/orgs/${other}/members/${bobMemberId}`)],
      ["GET endpoint claims", () => alice.api.get(`/api/orgs/${other}/endpoint-claims`)],
      [
        "POST endpoint claim",
        () => alice.api.post(`/api/orgs/${other}/endpoint-claims`, { data: { endpoint: "https://api.hive.blog" } }),
      ],
      [
        "POST verify claim",
        () => alice.api.post(`/api/orgs/${other}/endpoint-claims/${claimId}`, { data: { method: "dns" } }),
      ],
      ["DELETE claim", () => alice.api.delete(`/api/orgs/${other}/endpoint-claims/${claimId}`)],
      // Own org id in the path, other org's claim id: still refused.
      [
        "POST verify foreign claim via own org",
        () =>
          alice.api.post(`/api/orgs/${alice.organization.id}/endpoint-claims/${claimId}`, {
            data: { method: "well-known" },
          }),
      ],
      [
        "DELETE foreign claim via own org",
        () => alice.api.delete(`/api/orgs/${alice.organization.id}/endpoint-claims/${claimId}`),
      ],
      // Own org id in the path, other org's member id: still refused.
      [
        "PATCH foreign member via own org",
        () =>
          alice.api.patch(`/api/orgs/${alice.organization.id}/members/${bobMemberId}`, { data: { role: "viewer" } }),
      ],
      [
        "DELETE foreign member via own org",
        () => alice.api.delete(`/api/orgs/${alice.organization.id}/members/${bobMemberId}`),
      ],
      ["GET suggestions", () => alice.api.get(`/api/orgs/${other}/suggestions`)],
      [
        "POST suggestion action",
        () =>
          alice.api.post(`/api/orgs/${other}/suggestions/00000000-0000-4000-8000-000000000000`, {
            data: { action: "acknowledge" },
          }),
      ],
      // Own org id in the path, a suggestion id that is not the organization's: refused.
      [
        "POST foreign suggestion via own org",
        () =>
          alice.api.post(`/api/orgs/${alice.organization.id}/suggestions/00000000-0000-4000-8000-000000000000`, {
            data: { action: "dismiss", reason: "not ours" },
          }),
      ],
    ];
    await expectCallsRefused(calls);
    // Bob is still the owner of his organization.
    const members = (await (await bob.api.get(`/api/orgs/${other}/members`)).json()) as {
      members: { id: string; role: string }[];
    };
    expect(members.members).toEqual([expect.objectContaining({ id: bobMemberId, role: "owner" })]);
    const invitations = (await (await bob.api.get(`/api/orgs/${other}/invitations`)).json()) as {
      invitations: unknown[];
    };
    expect(invitations.invitations).toHaveLength(0);
    // Bob's claim is untouched: still there, never checked.
    const claims = (await (await bob.api.get(`/api/orgs/${other}/endpoint-claims`)).json()) as {
      claims: { id: string; lastCheckedAt: string | null }[];
    };
    expect(claims.claims).toEqual([expect.objectContaining({ id: claimId, lastCheckedAt: null })]);
  });

  test("pages of another organization are 404", async () => {
    const { alice, bob } = tenants;
    const page = await alice.api.get(`/app/o/${bob.organization.slug}`, { maxRedirects: 0 });
    expect(page.status()).toBe(404);
    const settings = await alice.api.get(`/app/o/${bob.organization.slug}/settings`, { maxRedirects: 0 });
    expect(settings.status()).toBe(404);
  });

  test("fleet pages and the node metrics route of another organization are 404", async () => {
    const { alice, bob } = tenants;
    const other = bob.organization.slug;
    const someNode = "00000000-0000-4000-8000-000000000000";
    await expectPagesRefused(alice.api, [
      `/app/o/${other}?sort=p95&status=down`,
      `/app/o/${other}/nodes/new`,
      `/app/o/${other}/nodes/${someNode}`,
      `/app/o/${other}/nodes/${someNode}/metrics?range=1h`,
      // Own organization, node id that is not one of its nodes.
      `/app/o/${alice.organization.slug}/nodes/${someNode}`,
      `/app/o/${alice.organization.slug}/nodes/${someNode}/metrics`,
      `/app/o/${alice.organization.slug}/nodes/not-a-uuid/metrics`,
      `/app/o/${other}/advisor`,
      `/app/o/${other}/advisor?severity=high`,
      `/app/o/${other}/advisor/export`,
      `/app/o/${other}/advisor/export?node=${someNode}`,
    ]);
  });

  test("anonymous and cross-origin callers are refused", async ({ playwright, baseURL }) => {
    const { alice } = tenants;
    const anonymous = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { origin: new URL(baseURL!).origin },
    });
    expect((await anonymous.get(`/api/orgs/${alice.organization.id}/members`)).status()).toBe(401);
    await anonymous.dispose();
    const crossSite = await alice.api.post(`/api/orgs/${alice.organization.id}/invitations`, {
      data: { email: "csrf@e2e.rpcpulse.dev", role: "admin" },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status()).toBe(403);
  });
});
