import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiJson } from "../fixtures/status-fixtures.js";
import {
  callRoute,
  createOrgApiKey,
  fillRoute,
  keyClient,
  listOrgRoutes,
  type OrgRoute,
} from "../fixtures/org-api-keys.js";
import { registerTenantPair } from "../fixtures/tenant-pair.js";

/**
 * API-key route walker: every exported method of every route file under apps/web/src/app/api/orgs/[orgId]
 * (derived from the files, so a new route is walked without editing this spec) is called
 *   1. with org A's WRITE key on org B's URL and B's real object ids: 403/404 and nothing of B in the body;
 *   2. with org A's WRITE key on A's URL and B's object ids (routes naming an object): 403/404 (400 allowed
 *      for a body the route refuses before any lookup) and nothing of B in the body;
 *   3. with org A's READ key on A's URL: every non-GET is 403 (before any body or id is looked at).
 * Afterwards B's objects are all still there, unchanged.
 */
test.describe("org API key route walker", () => {
  const tenants = registerTenantPair();

  test("a key of one organization reaches nothing of another; a read key cannot write", async ({ baseURL }) => {
    test.setTimeout(180_000);
    const { alice, bob, bobMemberId } = tenants;
    const A = alice.organization.id;
    const B = bob.organization.id;
    const tag = B.slice(0, 8).toLowerCase();

    // Org B's objects, made with Bob's session.
    const enrolled = await apiJson<{
      node: { id: string; name: string; localRpcUrl: string };
      agentToken: { id: string; token: string };
    }>(bob, "post", `/api/orgs/${B}/nodes`, {
      name: `bob-secret-node-${tag}`,
      network: "hive",
      apiFamily: "hive",
      clientName: "hived",
      localRpcUrl: `http://10.99.1.2:8091/bob-${tag}`,
    });
    const channel = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/alert-channels`, {
      name: `bob-hook-${tag}`,
      type: "webhook",
      url: `https://hooks.example.com/bob-${tag}`,
    });
    const rule = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/alert-rules`, {
      name: `bob-rule-${tag}`,
      type: "lag",
      target: "org",
      threshold: 10,
      channelIds: [channel.id],
    });
    const page = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/status-pages`, {
      slug: `bob-keys-${tag}`,
      title: `Bob page ${tag}`,
    });
    const component = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/status-pages/${page.id}/components`, {
      ref: `node:${enrolled.node.id}`,
    });
    const group = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/status-pages/${page.id}/groups`, {
      name: `bob-group-${tag}`,
    });
    const incident = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/status-pages/${page.id}/incidents`, {
      title: `Bob incident ${tag}`,
      body: "Investigating.",
    });
    const window = await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/status-pages/${page.id}/maintenance`, {
      title: `Bob maintenance ${tag}`,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 7_200_000).toISOString(),
      componentIds: [component.id],
    });
    const claim = await apiJson<{ claim: { id: string } }>(bob, "post", `/api/orgs/${B}/endpoint-claims`, {
      endpoint: "https://api.hive.blog",
    });
    const bobKey = await createOrgApiKey(bob, "write", `bob-key-${tag}`);
    const routes = listOrgRoutes();
    const routeParams = new Set(
      routes.flatMap((r) => r.segments.filter((s) => s.startsWith("[")).map((s) => s.slice(1, -1))),
    );
    const producer = routeParams.has("producerId")
      ? await apiJson<{ id: string }>(bob, "post", `/api/orgs/${B}/producers`, {
          network: "hive",
          account: `bobw${tag}`,
        })
      : undefined;

    const bIds: Record<string, string> = {
      nodeId: enrolled.node.id,
      tokenId: enrolled.agentToken.id,
      channelId: channel.id,
      ruleId: rule.id,
      pageId: page.id,
      componentId: component.id,
      groupId: group.id,
      incidentId: incident.id,
      windowId: window.id,
      claimId: claim.claim.id,
      memberId: bobMemberId,
      keyId: bobKey.id,
      // A fresh organization has no advisor suggestions: an id that exists nowhere.
      suggestionId: randomUUID(),
      ...(producer ? { producerId: producer.id } : {}),
    };
    // Anything that would show B's data leaked: ids, names, URLs, the agent token and B's key.
    const secrets = [
      B,
      bob.organization.slug,
      enrolled.node.name,
      enrolled.node.localRpcUrl,
      enrolled.agentToken.token,
      bobKey.key,
      `bob-hook-${tag}`,
      `bob-rule-${tag}`,
      `Bob page ${tag}`,
      `bob-group-${tag}`,
      `Bob incident ${tag}`,
      `Bob maintenance ${tag}`,
      ...Object.values(bIds),
    ];

    expect(routes.length).toBeGreaterThanOrEqual(50);
    const params = new Set(routeParams);
    params.delete("orgId");
    expect([...params].sort(), "every route parameter has one of B's ids").toEqual(
      Object.keys(bIds)
        .filter((k) => params.has(k))
        .sort(),
    );

    const aliceWrite = await keyClient(baseURL!, (await createOrgApiKey(alice, "write")).key);
    const aliceRead = await keyClient(baseURL!, (await createOrgApiKey(alice, "read")).key);

    async function refuses(api: APIRequestContext, route: OrgRoute, orgId: string, expected: number[]) {
      const path = fillRoute(route, { ...bIds, orgId });
      const res = await callRoute(api, route.method, path);
      const label = `${route.method} ${path} (${route.file})`;
      expect(expected, `${label} answered ${res.status()}`).toContain(res.status());
      expect(res.headers()["content-type"], label).toContain("application/problem+json");
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.status, label).toBe(res.status());
      // `instance` echoes the caller's own request path; everything else must say nothing of B.
      const text = JSON.stringify({ ...body, instance: undefined });
      for (const s of secrets) expect(text.includes(s), `${label} leaked ${s}`).toBe(false);
    }

    for (const route of routes) {
      await refuses(aliceWrite, route, B, [403, 404]);
      // Own URL, B's object ids (routes that name an object): never B's object. A body route may stop at
      // its input check (400, {} is not valid input) before any lookup; GET and DELETE must be 403/404.
      if (route.segments.some((s) => s.startsWith("[") && s !== "[orgId]")) {
        await refuses(
          aliceWrite,
          route,
          A,
          route.method === "GET" || route.method === "DELETE" ? [403, 404] : [400, 403, 404],
        );
      }
      if (route.method !== "GET") await refuses(aliceRead, route, A, [403]);
    }

    // The read key does read; the write key does write (own organization).
    expect((await aliceRead.get(`/api/orgs/${A}/nodes`)).status()).toBe(200);
    expect((await aliceRead.get(`/api/orgs/${A}/members`)).status()).toBe(403);
    const own = await aliceWrite.post(`/api/orgs/${A}/status-pages`, {
      data: { slug: `alice-keys-${tag}`, title: "Alice via key" },
    });
    expect(own.status(), await own.text()).toBe(201);

    // Nothing of B changed.
    const nodes = await apiJson<{ nodes: Array<{ id: string; name: string }> }>(bob, "get", `/api/orgs/${B}/nodes`);
    expect(nodes.nodes.map((n) => n.name)).toEqual([enrolled.node.name]);
    const tokens = await apiJson<{ tokens: Array<{ id: string; revokedAt: string | null; expiresAt: string | null }> }>(
      bob,
      "get",
      `/api/orgs/${B}/nodes/${enrolled.node.id}/agent-tokens`,
    );
    expect(tokens.tokens).toEqual([
      expect.objectContaining({ id: enrolled.agentToken.id, revokedAt: null, expiresAt: null }),
    ]);
    const pages = await apiJson<{ statusPages: Array<{ id: string; title: string }> }>(
      bob,
      "get",
      `/api/orgs/${B}/status-pages`,
    );
    expect(pages.statusPages.map((p) => p.title)).toEqual([`Bob page ${tag}`]);
    const detail = await apiJson<{ components: unknown[]; groups: Array<{ name: string }> }>(
      bob,
      "get",
      `/api/orgs/${B}/status-pages/${page.id}`,
    );
    expect(detail.components).toHaveLength(1);
    expect(detail.groups.map((g) => g.name)).toEqual([`bob-group-${tag}`]);
    const rules = await apiJson<{ rules: Array<{ id: string }> }>(bob, "get", `/api/orgs/${B}/alert-rules`);
    expect(rules.rules.map((r) => r.id)).toEqual([rule.id]);
    const keys = await apiJson<{ apiKeys: Array<{ id: string; state: string }> }>(
      bob,
      "get",
      `/api/orgs/${B}/api-keys`,
    );
    expect(keys.apiKeys).toEqual([expect.objectContaining({ id: bobKey.id, state: "active" })]);
    const bobKeyClient = await keyClient(baseURL!, bobKey.key);
    expect((await bobKeyClient.get(`/api/orgs/${B}/nodes`)).status()).toBe(200);
    for (const c of [aliceWrite, aliceRead, bobKeyClient]) await c.dispose();
  });
});
