import { expect, test } from "@playwright/test";
import { apiJson, enrollNodeInUi } from "../fixtures/status-fixtures.js";
import {
  registerTenantPair,
  expectCallsRefused,
  expectPagesRefused,
  type CrossTenantCall,
} from "../fixtures/tenant-pair.js";

/**
 * Tenant isolation of alerting (rules, channels, deliveries) and of status pages with their
 * components, groups, incidents and maintenance windows. Every org-scoped route, called by a
 * signed-in user of org A with org B's ids, must answer 403 or 404 and change nothing (shared setup
 * and the refusal checks: e2e/fixtures/tenant-pair.ts; organization, fleet and advisor routes:
 * org-tenant-isolation.spec.ts).
 */
test.describe("tenant isolation", () => {
  const tenants = registerTenantPair();

  test("alert rules, channels, tests and the delivery log of another organization are refused", async () => {
    const { alice, bob } = tenants;
    const bobOrg = bob.organization.id;
    const aliceOrg = alice.organization.id;
    const channel = await bob.api.post(`/api/orgs/${bobOrg}/alert-channels`, {
      data: { name: "bob hook", type: "webhook", url: "https://hooks.example.com/bob" },
    });
    expect(channel.status()).toBe(201);
    const { id: channelId, signingSecret } = (await channel.json()) as { id: string; signingSecret: string };
    expect(signingSecret).toMatch(/^whsec_/);
    const rule = await bob.api.post(`/api/orgs/${bobOrg}/alert-rules`, {
      data: { name: "bob lag", type: "lag", target: "org", threshold: 10, channelIds: [channelId] },
    });
    expect(rule.status()).toBe(201);
    const { id: ruleId } = (await rule.json()) as { id: string };
    // Own organization, bad input: 400 with a reason, nothing written.
    const bad = await alice.api.post(`/api/orgs/${aliceOrg}/alert-rules`, {
      data: { name: "x", type: "lag", target: "org", threshold: 5, degraded: 9 },
    });
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/degraded/);
    // Routing a rule to another organization's channel is refused too.
    const stolenRoute = await alice.api.post(`/api/orgs/${aliceOrg}/alert-rules`, {
      data: { name: "x", type: "lag", target: "org", channelIds: [channelId] },
    });
    expect(stolenRoute.status()).toBe(400);

    const calls: CrossTenantCall[] = [
      ["GET alerts", () => alice.api.get(`/api/orgs/${bobOrg}/alerts`)],
      ["GET alert-rules", () => alice.api.get(`/api/orgs/${bobOrg}/alert-rules`)],
      [
        "POST alert-rules",
        () => alice.api.post(`/api/orgs/${bobOrg}/alert-rules`, { data: { name: "x", type: "lag", target: "org" } }),
      ],
      [
        "PUT rule",
        () =>
          alice.api.put(`/api/orgs/${bobOrg}/alert-rules/${ruleId}`, {
            data: { name: "x", type: "lag", target: "org" },
          }),
      ],
      ["DELETE rule", () => alice.api.delete(`/api/orgs/${bobOrg}/alert-rules/${ruleId}`)],
      [
        "PUT foreign rule via own org",
        () =>
          alice.api.put(`/api/orgs/${aliceOrg}/alert-rules/${ruleId}`, {
            data: { name: "x", type: "lag", target: "org" },
          }),
      ],
      ["DELETE foreign rule via own org", () => alice.api.delete(`/api/orgs/${aliceOrg}/alert-rules/${ruleId}`)],
      ["DELETE rule not-a-uuid", () => alice.api.delete(`/api/orgs/${aliceOrg}/alert-rules/not-a-uuid`)],
      ["GET alert-channels", () => alice.api.get(`/api/orgs/${bobOrg}/alert-channels`)],
      [
        "POST alert-channels",
        () =>
          alice.api.post(`/api/orgs/${bobOrg}/alert-channels`, {
            data: { name: "x", type: "email", to: "a@example.com" },
          }),
      ],
      ["DELETE channel", () => alice.api.delete(`/api/orgs/${bobOrg}/alert-channels/${channelId}`)],
      ["POST channel test", () => alice.api.post(`/api/orgs/${bobOrg}/alert-channels/${channelId}/test`)],
      [
        "DELETE foreign channel via own org",
        () => alice.api.delete(`/api/orgs/${aliceOrg}/alert-channels/${channelId}`),
      ],
      [
        "POST foreign channel test via own org",
        () => alice.api.post(`/api/orgs/${aliceOrg}/alert-channels/${channelId}/test`),
      ],
      ["GET alerts page", () => alice.api.get(`/app/o/${bob.organization.slug}/alerts`, { maxRedirects: 0 })],
      [
        "GET alerts page editing bob's rule",
        () => alice.api.get(`/app/o/${bob.organization.slug}/alerts?edit=${ruleId}`, { maxRedirects: 0 }),
      ],
    ];
    await expectCallsRefused(calls);
    // Bob's rule and channel are untouched; the secret is not in any listing.
    const rules = (await (await bob.api.get(`/api/orgs/${bobOrg}/alert-rules`)).json()) as {
      rules: { id: string; name: string }[];
    };
    expect(rules.rules).toEqual([expect.objectContaining({ id: ruleId, name: "bob lag" })]);
    const channels = await bob.api.get(`/api/orgs/${bobOrg}/alert-channels`);
    const listed = await channels.text();
    expect(listed).toContain(channelId);
    expect(listed).not.toContain(signingSecret);
    // Alice's own organization shows none of it.
    const own = (await (await alice.api.get(`/api/orgs/${aliceOrg}/alerts`)).json()) as {
      deliveries: unknown[];
      active: unknown[];
    };
    expect(own.deliveries).toEqual([]);
    expect(own.active).toEqual([]);
    const ownPage = await alice.api.get(`/app/o/${alice.organization.slug}/alerts?edit=${ruleId}`);
    expect(ownPage.status()).toBe(200);
    expect(await ownPage.text()).not.toContain("bob lag");
  });

  test("status pages, components, groups, incidents, maintenance and their admin pages of another organization are refused", async ({
    browser,
  }) => {
    const { alice, bob } = tenants;
    const bobOrg = bob.organization.id;
    const aliceOrg = alice.organization.id;
    const created = await bob.api.post(`/api/orgs/${bobOrg}/status-pages`, {
      data: { slug: `bob-status-${bobOrg.slice(0, 8).toLowerCase()}`, title: "Bob status", isPublic: true },
    });
    expect(created.status()).toBe(201);
    const { id: pageId } = (await created.json()) as { id: string };
    const incident = await bob.api.post(`/api/orgs/${bobOrg}/status-pages/${pageId}/incidents`, {
      data: { title: "Bob incident", body: "Investigating." },
    });
    expect(incident.status()).toBe(201);
    const { id: incidentId } = (await incident.json()) as { id: string };
    const bobNode = await enrollNodeInUi(browser, bob, {
      name: `bob-node-${bobOrg.slice(0, 8).toLowerCase()}`,
      localRpcUrl: "http://127.0.0.1:18091",
    });
    const component = await apiJson<{ id: string }>(
      bob,
      "post",
      `/api/orgs/${bobOrg}/status-pages/${pageId}/components`,
      { ref: `node:${bobNode.nodeId}` },
    );
    const { id: groupId } = await apiJson<{ id: string }>(
      bob,
      "post",
      `/api/orgs/${bobOrg}/status-pages/${pageId}/groups`,
      {
        name: "Bob group",
      },
    );
    const { id: windowId } = await apiJson<{ id: string }>(
      bob,
      "post",
      `/api/orgs/${bobOrg}/status-pages/${pageId}/maintenance`,
      {
        title: "Bob maintenance",
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7_200_000).toISOString(),
        componentIds: [component.id],
      },
    );
    const stolenWindow = {
      title: "stolen",
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 60_000).toISOString(),
      componentIds: [component.id],
    };
    // Own organization, bad input: 400 with a reason.
    const bad = await alice.api.post(`/api/orgs/${aliceOrg}/status-pages`, { data: { slug: "No Way!", title: "" } });
    expect(bad.status()).toBe(400);

    const calls: CrossTenantCall[] = [
      ["GET status-pages", () => alice.api.get(`/api/orgs/${bobOrg}/status-pages`)],
      [
        "POST status-pages",
        () => alice.api.post(`/api/orgs/${bobOrg}/status-pages`, { data: { slug: "x-x", title: "x" } }),
      ],
      ["GET page", () => alice.api.get(`/api/orgs/${bobOrg}/status-pages/${pageId}`)],
      ["GET foreign page via own org", () => alice.api.get(`/api/orgs/${aliceOrg}/status-pages/${pageId}`)],
      [
        "PATCH foreign page via own org",
        () => alice.api.patch(`/api/orgs/${aliceOrg}/status-pages/${pageId}`, { data: { slug: "stolen", title: "x" } }),
      ],
      ["DELETE foreign page via own org", () => alice.api.delete(`/api/orgs/${aliceOrg}/status-pages/${pageId}`)],
      ["GET page not-a-uuid", () => alice.api.get(`/api/orgs/${aliceOrg}/status-pages/not-a-uuid`)],
      [
        "POST component on foreign page",
        () =>
          alice.api.post(`/api/orgs/${aliceOrg}/status-pages/${pageId}/components`, {
            data: { ref: "node:00000000-0000-4000-8000-000000000000" },
          }),
      ],
      [
        "POST incident on foreign page",
        () =>
          alice.api.post(`/api/orgs/${aliceOrg}/status-pages/${pageId}/incidents`, { data: { title: "x", body: "y" } }),
      ],
      [
        "POST update on foreign incident",
        () =>
          alice.api.post(`/api/orgs/${aliceOrg}/incidents/${incidentId}/updates`, {
            data: { status: "resolved", body: "stolen" },
          }),
      ],
      [
        "POST update via foreign org",
        () =>
          alice.api.post(`/api/orgs/${bobOrg}/incidents/${incidentId}/updates`, {
            data: { status: "resolved", body: "stolen" },
          }),
      ],
      [
        "POST group on foreign page",
        () => alice.api.post(`/api/orgs/${aliceOrg}/status-pages/${pageId}/groups`, { data: { name: "x" } }),
      ],
      [
        "POST group via foreign org",
        () => alice.api.post(`/api/orgs/${bobOrg}/status-pages/${pageId}/groups`, { data: { name: "x" } }),
      ],
      [
        "PATCH foreign group via own org",
        () => alice.api.patch(`/api/orgs/${aliceOrg}/status-groups/${groupId}`, { data: { name: "stolen" } }),
      ],
      [
        "PATCH (move) foreign group via own org",
        () => alice.api.patch(`/api/orgs/${aliceOrg}/status-groups/${groupId}`, { data: { move: "down" } }),
      ],
      [
        "PATCH group via foreign org",
        () => alice.api.patch(`/api/orgs/${bobOrg}/status-groups/${groupId}`, { data: { name: "stolen" } }),
      ],
      ["DELETE foreign group via own org", () => alice.api.delete(`/api/orgs/${aliceOrg}/status-groups/${groupId}`)],
      [
        "GET maintenance of foreign page",
        () => alice.api.get(`/api/orgs/${aliceOrg}/status-pages/${pageId}/maintenance`),
      ],
      [
        "POST maintenance on foreign page",
        () => alice.api.post(`/api/orgs/${aliceOrg}/status-pages/${pageId}/maintenance`, { data: stolenWindow }),
      ],
      [
        "PATCH foreign maintenance via own org",
        () => alice.api.patch(`/api/orgs/${aliceOrg}/maintenance/${windowId}`, { data: stolenWindow }),
      ],
      [
        "PATCH maintenance via foreign org",
        () => alice.api.patch(`/api/orgs/${bobOrg}/maintenance/${windowId}`, { data: stolenWindow }),
      ],
      [
        "DELETE foreign maintenance via own org",
        () => alice.api.delete(`/api/orgs/${aliceOrg}/maintenance/${windowId}`),
      ],
    ];
    await expectCallsRefused(calls);
    await expectPagesRefused(alice.api, [
      `/app/o/${bob.organization.slug}/status-pages`,
      `/app/o/${bob.organization.slug}/status-pages/${pageId}`,
      `/app/o/${alice.organization.slug}/status-pages/${pageId}`,
      `/app/o/${alice.organization.slug}/status-pages/${pageId}/incidents/${incidentId}`,
      `/app/o/${alice.organization.slug}/status-pages/not-a-uuid`,
    ]);
    // Nothing changed: the page is Bob's, public, and the incident is still open.
    const page = (await (await bob.api.get(`/api/orgs/${bobOrg}/status-pages/${pageId}`)).json()) as {
      title: string;
      groups: { id: string; name: string }[];
    };
    expect(page.title).toBe("Bob status");
    expect(page.groups).toEqual([expect.objectContaining({ id: groupId, name: "Bob group" })]);
    const windows = await apiJson<{ maintenance: { id: string; title: string }[] }>(
      bob,
      "get",
      `/api/orgs/${bobOrg}/status-pages/${pageId}/maintenance`,
    );
    expect(windows.maintenance).toEqual([expect.objectContaining({ id: windowId, title: "Bob maintenance" })]);
    // The same routes answer Bob (the refusals above are not missing routes); bad input is a 400 with the reason.
    const ownGroup = `/api/orgs/${bobOrg}/status-groups/${groupId}`;
    expect((await bob.api.patch(ownGroup, { data: { name: "Bob renamed", move: "up" } })).status()).toBe(200);
    const ownWindow = `/api/orgs/${bobOrg}/maintenance/${windowId}`;
    expect((await bob.api.patch(ownWindow, { data: { ...stolenWindow, title: "Bob edited" } })).status()).toBe(200);
    const backwards = await bob.api.patch(ownWindow, { data: { ...stolenWindow, endsAt: stolenWindow.startsAt } });
    expect(backwards.status()).toBe(400);
    expect(((await backwards.json()) as { error: { message: string } }).error.message).toBe(
      "The end must be after the start.",
    );
    expect((await bob.api.delete(ownWindow)).status()).toBe(200);
    expect((await bob.api.delete(ownGroup)).status()).toBe(200);
    const summary = (await (
      await alice.api.get(`/status/bob-status-${bobOrg.slice(0, 8).toLowerCase()}/summary.json`)
    ).json()) as {
      activeIncidents: unknown[];
    };
    expect(summary.activeIncidents).toHaveLength(1);
  });
});
