/**
 * Status pages against real PostgreSQL and Redis: page/component management with tenant checks,
 * the public snapshot (states, 90-day uptime with its cache, incidents), auto incidents for the
 * alerting engine, maintenance, custom domains and the subscription flow through the delivery queue.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, type QueueTarget } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import {
  createStatusComponent,
  createStatusGroup,
  confirmStatusSubscription,
  createIncident,
  createStatusPage,
  getPublicStatusPage,
  invalidateStatusSnapshots,
  isInMaintenance,
  openAutoIncident,
  createIncidentUpdate,
  resolveAutoIncident,
  createMaintenance,
  setCustomDomain,
  subscribeToStatusPage,
  unsubscribeFromStatusPage,
  updateAutoIncident,
  verifyCustomDomain,
  type SubscriptionDeps,
} from "@rpcpulse/services/status";
import { deriveSecretsKey } from "@rpcpulse/services/alerting";
import { enrollNode } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG_A = "org-status-a";
const ORG_B = "org-status-b";
const ctxOf = (organizationId: string, role: ServiceContext["role"] = "owner"): ServiceContext => ({
  userId: `user-${organizationId}`,
  organizationId,
  organizationSlug: organizationId,
  role,
});

async function rejects(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => isAppError(e) && e.code === code);
}

const node = (name: string, network = "hive") => ({
  network,
  apiFamily: network === "hive" ? "hive" : "ethereum",
  clientName: "hived",
  name,
  localRpcUrl: `http://10.20.30.${name.length}:8091/secret-path-${name}`,
});

describe("status pages (PostgreSQL + Redis)", () => {
  let db: TestDatabase;
  let redis: ReturnType<typeof createRedisConnection>;
  let queue: QueueTarget;
  let prefix: string;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  let subDeps: SubscriptionDeps;
  const ids: Record<string, string> = {};

  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "producer", connectionName: "status-test" });
    queue = { connection: redis, prefix };
    subDeps = {
      prisma: db.prisma,
      queue,
      secretsKey: deriveSecretsKey("status-test-key-0123456789abcdef0123456789"),
      rateLimit: redis,
      rateLimitPrefix: prefix,
      appBaseUrl: "https://pulse.example",
    };
    for (const id of [ORG_A, ORG_B]) await createTestOrg(db, { id, name: `Name of ${id}` });
    ids.a1 = (await enrollNode(deps, ctxOf(ORG_A), node("alpha-witness"))).node.id;
    ids.a2 = (await enrollNode(deps, ctxOf(ORG_A), node("alpha-private-unlisted"))).node.id;
    ids.b1 = (await enrollNode(deps, ctxOf(ORG_B), node("bravo-secret-node"))).node.id;
    const network = await db.prisma.network.findUniqueOrThrow({ where: { slug: "hive" } });
    ids.ep = (
      await db.prisma.publicEndpoint.create({
        data: {
          networkId: network.id,
          apiFamily: "hive",
          url: "https://api.public.example",
          name: "Public API",
          status: "active",
        },
      })
    ).id;
    for (const [id, name] of [
      ["00000000-0000-4000-8000-0000000000b1", "vp-eu"],
      ["00000000-0000-4000-8000-0000000000b2", "vp-us"],
    ] as const) {
      await db.prisma.vantagePoint.create({ data: { id, name, region: name.slice(3), kind: "server" } });
    }
  });

  after(async () => {
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await db.drop();
  });

  test("pages, groups and components: admin writes, tenant checks, unique slug and listing", async () => {
    const a = ctxOf(ORG_A);
    await rejects(createStatusPage(deps, ctxOf(ORG_A, "viewer"), { slug: "alpha", title: "Alpha" }), "FORBIDDEN");
    await assert.rejects(createStatusPage(deps, a, { slug: "A!", title: "x" }));
    ids.page = (await createStatusPage(deps, a, { slug: "alpha", title: "Alpha witnesses", isPublic: true })).id;
    await rejects(createStatusPage(deps, ctxOf(ORG_B), { slug: "alpha", title: "taken" }), "CONFLICT");
    ids.group = (await createStatusGroup(deps, a, { pageId: ids.page, fields: { name: "Witnesses" } })).id;
    ids.cNode = (
      await createStatusComponent(deps, a, { pageId: ids.page, fields: { ref: `node:${ids.a1}`, groupId: ids.group } })
    ).id;
    ids.cEp = (
      await createStatusComponent(deps, a, {
        pageId: ids.page,
        fields: { ref: `endpoint:${ids.ep}`, displayName: "Community API" },
      })
    ).id;
    await rejects(createStatusComponent(deps, a, { pageId: ids.page, fields: { ref: `node:${ids.a1}` } }), "CONFLICT");
    // Another organization's node, or a page of another organization: NOT_FOUND.
    await rejects(createStatusComponent(deps, a, { pageId: ids.page, fields: { ref: `node:${ids.b1}` } }), "NOT_FOUND");
    await rejects(
      createStatusComponent(deps, ctxOf(ORG_B), { pageId: ids.page, fields: { ref: `node:${ids.b1}` } }),
      "NOT_FOUND",
    );
    await rejects(createStatusGroup(deps, ctxOf(ORG_B), { pageId: ids.page, fields: { name: "x" } }), "NOT_FOUND");
    ids.draft = (await createStatusPage(deps, a, { slug: "alpha-draft", title: "Draft" })).id;
    await rejects(getPublicStatusPage(deps, { slug: "alpha-draft" }, { fresh: true }), "NOT_FOUND");
  });

  test("snapshot: states from telemetry and probes, 90 uptime days (cached), nothing private", async () => {
    const now = new Date();
    const minute = 60_000;
    // Node a1: reporting, 2 blocks behind (Hive threshold is 10); yesterday fully reported for 60 minutes.
    await db.prisma.node.update({
      where: { id: ids.a1! },
      data: { createdAt: new Date(now.getTime() - 3 * 86_400_000) },
    });
    const yesterday = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 - 86_400_000 + 3_600_000);
    const samples = [
      {
        time: new Date(now.getTime() - 2_000),
        nodeId: ids.a1!,
        lagBlocks: 2,
        headTime: new Date(now.getTime() - 3_000),
      },
    ];
    for (let m = 0; m < 60; m++)
      samples.push({
        time: new Date(yesterday.getTime() + m * minute),
        nodeId: ids.a1!,
        lagBlocks: 0,
        headTime: new Date(yesterday.getTime() + m * minute),
      });
    await insertNodeSamples(db.pool, samples);
    // Endpoint: one vantage point ok, the other failing → degraded.
    await insertProbeResults(db.pool, [
      {
        time: new Date(now.getTime() - minute),
        endpointId: ids.ep!,
        vantagePointId: "00000000-0000-4000-8000-0000000000b1",
        ok: true,
        totalMs: 120,
      },
      {
        time: new Date(now.getTime() - minute),
        endpointId: ids.ep!,
        vantagePointId: "00000000-0000-4000-8000-0000000000b2",
        ok: false,
      },
    ]);
    await refreshRollups(db.pool, { from: new Date(yesterday.getTime() - 3_600_000), to: now });
    const snap = await getPublicStatusPage(deps, { slug: "alpha" }, { fresh: true });
    assert.equal(snap.components.length, 2);
    const cNode = snap.components.find((c) => c.id === ids.cNode)!;
    const cEp = snap.components.find((c) => c.id === ids.cEp)!;
    assert.equal(cNode.state, "operational");
    assert.equal(cNode.name, "alpha-witness");
    assert.equal(cEp.state, "degraded");
    assert.equal(snap.overall, "degraded");
    assert.equal(cNode.days.length, 90);
    const day = cNode.days[88]!;
    // Yesterday the agent reported 60 of 1,440 minutes: silent minutes count as down once it had reported.
    assert.equal(day.uptime, 60 / 1440);
    assert.equal(day.level, "major");
    assert.equal(cNode.days[87]!.uptime, null, "before the agent's first report: no bar");
    assert.equal(snap.groups[0]?.name, "Witnesses");
    const cached = await db.prisma.statusUptimeDay.count({ where: { refId: ids.a1! } });
    assert.ok(cached >= 1, "finished days are cached");
    const text = JSON.stringify(snap);
    for (const secret of [
      ids.a1!,
      ids.a2!,
      ids.b1!,
      ids.ep!,
      "10.20.30",
      "secret-path",
      "alpha-private-unlisted",
      "bravo",
      ORG_B,
      "api.public.example",
    ]) {
      assert.ok(!text.includes(secret), `snapshot leaks ${secret}`);
    }
  });

  test("auto incidents: idempotent per alert key, only for listed refs, update and resolve", async () => {
    const first = await openAutoIncident(deps, {
      organizationId: ORG_A,
      componentRef: ids.a1!,
      alertKey: "lag:a1",
      title: "alpha-witness is lagging",
      body: "**14 blocks** behind for 6 minutes",
      impact: "major",
    });
    assert.ok(first.incidentId && first.created);
    const [again, racing] = await Promise.all([
      openAutoIncident(deps, {
        organizationId: ORG_A,
        componentRef: ids.a1!,
        alertKey: "lag:a1",
        title: "x",
        body: "y",
      }),
      openAutoIncident(deps, {
        organizationId: ORG_A,
        componentRef: ids.a1!,
        alertKey: "lag:a1",
        title: "x",
        body: "y",
      }),
    ]);
    assert.equal(again.incidentId, first.incidentId);
    assert.equal(racing.incidentId, first.incidentId);
    assert.equal(again.created || racing.created, false);
    const notListed = await openAutoIncident(deps, {
      organizationId: ORG_A,
      componentRef: ids.a2!,
      alertKey: "k2",
      title: "t",
      body: "b",
    });
    assert.equal(notListed.incidentId, null);
    // Org B cannot open an incident on org A's page through a listed ref.
    const foreign = await openAutoIncident(deps, {
      organizationId: ORG_B,
      componentRef: ids.a1!,
      alertKey: "k3",
      title: "t",
      body: "b",
    });
    assert.equal(foreign.incidentId, null);

    invalidateStatusSnapshots();
    let snap = await getPublicStatusPage(deps, { slug: "alpha" });
    assert.equal(snap.activeIncidents.length, 1);
    assert.match(snap.activeIncidents[0]!.updates[0]!.html, /<strong>14 blocks<\/strong>/);
    assert.deepEqual(snap.activeIncidents[0]!.componentIds, [ids.cNode]);
    assert.ok(
      snap.components.find((c) => c.id === ids.cNode)!.days[89]!.incidents.length === 1,
      "today's bar lists it",
    );

    await updateAutoIncident(deps, { alertKey: "lag:a1", body: "20 blocks behind", status: "identified" });
    await resolveAutoIncident(deps, { alertKey: "lag:a1", body: "Back at the head." });
    assert.equal(
      (await resolveAutoIncident(deps, { alertKey: "lag:a1" })).incidentId,
      null,
      "second resolve is a no-op",
    );
    snap = await getPublicStatusPage(deps, { slug: "alpha" });
    assert.equal(snap.activeIncidents.length, 0);
    assert.equal(snap.pastIncidents[0]?.updates.length, 3);
    // A new alert with the same key after resolution opens a new incident.
    const reopened = await openAutoIncident(deps, {
      organizationId: ORG_A,
      componentRef: ids.a1!,
      alertKey: "lag:a1",
      title: "again",
      body: "b",
    });
    assert.ok(reopened.created && reopened.incidentId !== first.incidentId);
    await resolveAutoIncident(deps, { organizationId: ORG_A, alertKey: "lag:a1" });
  });

  test("maintenance: covers the window, scoped to the organization, shows on the page", async () => {
    const a = ctxOf(ORG_A);
    const now = Date.now();
    await assert.rejects(
      createMaintenance(deps, a, {
        pageId: ids.page!,
        fields: {
          title: "x",
          startsAt: new Date(now + 1000).toISOString(),
          endsAt: new Date(now).toISOString(),
          componentIds: [ids.cNode!],
        },
      }),
      /The end must be after the start/,
    );
    await createMaintenance(deps, a, {
      pageId: ids.page!,
      fields: {
        title: "Upgrade to 1.28",
        startsAt: new Date(now - 60_000).toISOString(),
        endsAt: new Date(now + 3_600_000).toISOString(),
        componentIds: [ids.cNode!],
      },
    });
    assert.equal(await isInMaintenance(deps, { organizationId: ORG_A, componentRef: ids.a1! }), true);
    assert.equal(await isInMaintenance(deps, { nodeId: ids.a1!, at: new Date(now + 7_200_000) }), false);
    assert.equal(await isInMaintenance(deps, { organizationId: ORG_B, componentRef: ids.a1! }), false);
    assert.equal(await isInMaintenance(deps, { endpointId: ids.ep! }), false);
    invalidateStatusSnapshots();
    const snap = await getPublicStatusPage(deps, { slug: "alpha" });
    assert.equal(snap.components.find((c) => c.id === ids.cNode)!.state, "maintenance");
    assert.equal(snap.maintenance[0]?.active, true);
  });

  test("custom domain: served only after the TXT record is verified", async () => {
    const a = ctxOf(ORG_A);
    const { verifyToken } = await setCustomDomain(deps, a, { pageId: ids.page!, domain: "Status.Alpha.example" });
    await rejects(getPublicStatusPage(deps, { domain: "status.alpha.example" }, { fresh: true }), "NOT_FOUND");
    const wrong = await verifyCustomDomain({ ...deps, lookupTxt: async () => [["something-else"]] }, a, {
      pageId: ids.page!,
    });
    assert.equal(wrong.verified, false);
    const right = await verifyCustomDomain(
      {
        ...deps,
        lookupTxt: async (name) => {
          assert.equal(name, "_rpcpulse-verify.status.alpha.example");
          return [[verifyToken!]];
        },
      },
      a,
      { pageId: ids.page! },
    );
    assert.equal(right.verified, true);
    const snap = await getPublicStatusPage(deps, { domain: "status.alpha.example:443" }, { fresh: true });
    assert.equal(snap.page.slug, "alpha");
    await rejects(setCustomDomain(deps, ctxOf(ORG_B), { pageId: ids.page!, domain: "x.example" }), "NOT_FOUND");
  });

  test("subscriptions: double opt-in, hashed tokens, notifications with one-click unsubscribe, rate limit", async () => {
    const res = await subscribeToStatusPage(subDeps, {
      slug: "alpha",
      clientKey: "198.51.100.7",
      fields: { kind: "email", target: "Ops@Example.org" },
    });
    assert.deepEqual(res, { status: "pending", kind: "email" });
    const confirmMail = await db.prisma.delivery.findFirstOrThrow({
      where: { purpose: "status-subscription-confirm" },
    });
    const token = /confirm\?token=([A-Za-z0-9_-]+)/.exec(JSON.stringify(confirmMail.payload))?.[1];
    assert.ok(token);
    const row = await db.prisma.statusSubscriber.findFirstOrThrow({ where: { target: "ops@example.org" } });
    assert.ok(!JSON.stringify(row).includes(token!), "the confirmation token is stored hashed only");
    assert.equal(row.confirmedAt, null);

    assert.equal((await confirmStatusSubscription(deps, { token: "A".repeat(43) })).confirmed, false);
    assert.equal((await confirmStatusSubscription(deps, { token: token! })).confirmed, true);
    assert.equal((await confirmStatusSubscription(deps, { token: token! })).confirmed, false, "single use");

    const hook = await subscribeToStatusPage(subDeps, {
      slug: "alpha",
      clientKey: "198.51.100.8",
      fields: { kind: "webhook", target: "https://hooks.example/x" },
    });
    assert.equal(hook.status, "pending");
    assert.ok(hook.status === "pending" && hook.kind === "webhook" && hook.signingSecret.startsWith("whsec_"));
    const hookRow = await db.prisma.statusSubscriber.findFirstOrThrow({ where: { kind: "webhook" } });
    assert.ok(!hookRow.webhookSecret?.includes(hook.signingSecret), "the signing secret is sealed at rest");
    await assert.rejects(
      subscribeToStatusPage(subDeps, {
        slug: "alpha",
        clientKey: null,
        fields: { kind: "webhook", target: "http://plain.example" },
      }),
      /Webhooks must use https/,
    );
    await rejects(
      subscribeToStatusPage(subDeps, {
        slug: "alpha-draft",
        clientKey: null,
        fields: { kind: "email", target: "a@b.example" },
      }),
      "NOT_FOUND",
    );

    // A manual incident notifies confirmed subscribers only, each with a working unsubscribe link.
    const notify = { ...deps, queue, secretsKey: subDeps.secretsKey, appBaseUrl: subDeps.appBaseUrl };
    const incident = await createIncident(notify, ctxOf(ORG_A), {
      pageId: ids.page!,
      fields: { title: "RPC errors", body: "Investigating <script>x</script>", componentIds: [ids.cEp!] },
    });
    const updates = await db.prisma.delivery.findMany({ where: { purpose: "status-subscriber-update" } });
    assert.equal(updates.length, 1, "the pending webhook subscriber is not notified");
    const payload = JSON.stringify(updates[0]!.payload);
    assert.match(payload, /List-Unsubscribe-Post/);
    const unsub = /unsubscribe\?token=([A-Za-z0-9_-]+)/.exec(payload)?.[1];
    assert.ok(unsub);
    await createIncidentUpdate(notify, ctxOf(ORG_A), {
      incidentId: incident.id,
      fields: { status: "resolved", body: "Fixed." },
    });
    assert.equal(await db.prisma.delivery.count({ where: { purpose: "status-subscriber-update" } }), 2);
    assert.equal((await unsubscribeFromStatusPage(deps, { token: unsub! })).unsubscribed, true);
    assert.equal((await unsubscribeFromStatusPage(deps, { token: unsub! })).unsubscribed, false);
    assert.equal(await db.prisma.statusSubscriber.count({ where: { kind: "email" } }), 0);

    for (let i = 0; i < 3; i++) {
      await subscribeToStatusPage(subDeps, {
        slug: "alpha",
        clientKey: "203.0.113.9",
        fields: { kind: "email", target: `u${i}@example.org` },
      });
    }
    await subscribeToStatusPage(subDeps, {
      slug: "alpha",
      clientKey: "203.0.113.9",
      fields: { kind: "email", target: "u4@example.org" },
    });
    await subscribeToStatusPage(subDeps, {
      slug: "alpha",
      clientKey: "203.0.113.9",
      fields: { kind: "email", target: "u5@example.org" },
    });
    await rejects(
      subscribeToStatusPage(subDeps, {
        slug: "alpha",
        clientKey: "203.0.113.9",
        fields: { kind: "email", target: "u6@example.org" },
      }),
      "RATE_LIMITED",
    );
  });
});
