/**
 * Alerting end to end against real PostgreSQL and Redis: rules over stored samples and probes,
 * state and events, deliveries through BullMQ to local receivers (SMTP, HMAC webhook, Slack,
 * Telegram), retries on 5xx, the delivery log, auto-incidents and maintenance silencing.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import { createTestDatabase, createTestOrg, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { createMailer, SIGNATURE_HEADER, verifyWebhookSignature, type Mailer } from "@rpcpulse/notify";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { closeQueues, createRedisConnection, NOTIFY_ATTEMPTS, type QueueTarget } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { UnrecoverableError, Worker, type Job } from "bullmq";
import {
  createAlertChannel,
  createAlertRule,
  deleteAlertRule,
  deliverNotification,
  deriveSecretsKey,
  enqueueEmail,
  enqueueWebhookPost,
  evaluateAlerts,
  getAlertsOverview,
  testAlertChannel,
  updateAlertRule,
} from "@rpcpulse/services/alerting";
import { enrollNode } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startHttpReceiver, startSmtpReceiver } from "@rpcpulse/notify/testing";

const ORG_A = "org-alerts-a";
const ORG_B = "org-alerts-b";
const ctxOf = (organizationId: string, role: ServiceContext["role"] = "owner"): ServiceContext => ({
  userId: `user-${organizationId}`,
  organizationId,
  organizationSlug: organizationId,
  role,
});

/** Deliveries go through the real queue, worker and local receivers. */
const DELIVERY_WAIT = { timeoutMs: 20_000, intervalMs: 100 };

describe("alerting (PostgreSQL + Redis + local receivers)", () => {
  let db: TestDatabase;
  let redis: ReturnType<typeof createRedisConnection>;
  let queue: QueueTarget;
  let worker: Worker;
  // The worker's own connection: BullMQ does not close a connection it was handed.
  let workerRedis: ReturnType<typeof createRedisConnection> | undefined;
  let mailer: Mailer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
  let flaky: Awaited<ReturnType<typeof startHttpReceiver>>;
  const secretsKey = deriveSecretsKey("test-secrets-key-material-0123456789abcdef");
  const signingSecrets = new Map<string, string>();
  let deps: {
    prisma: TestDatabase["prisma"];
    sql: TestDatabase["pool"];
    queue: QueueTarget;
    secretsKey: typeof secretsKey;
  };
  let nodeId = "";
  const t0 = new Date(Date.now() - 10 * 60_000);
  const at = (s: number) => new Date(t0.getTime() + s * 1000);

  before(async () => {
    db = await createTestDatabase();
    for (const id of [ORG_A, ORG_B]) await createTestOrg(db, { id, name: `Org ${id}` });
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker", connectionName: "alerting-test" });
    queue = { connection: redis, prefix: uniquePrefix() };
    deps = { prisma: db.prisma, sql: db.pool, queue, secretsKey };
    smtp = await startSmtpReceiver();
    mailer = createMailer({ url: smtp.url, from: "alerts@rpcpulse.test" });
    // The webhook receiver verifies the HMAC with the secret the channel showed once.
    hook = await startHttpReceiver((req) => {
      if (req.path.startsWith("/bot")) return 200; // the Telegram Bot API stand-in
      const secret = signingSecrets.get(req.path) ?? "";
      const header = req.headers[SIGNATURE_HEADER];
      return verifyWebhookSignature({ secret, header: typeof header === "string" ? header : null, body: req.body }).ok
        ? 200
        : 401;
    });
    // First request to each path answers 503, then 200: the retry path.
    const seen = new Set<string>();
    flaky = await startHttpReceiver((req) => {
      if (seen.has(req.path)) return 200;
      seen.add(req.path);
      return 503;
    });
    const send = {
      client: createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 }),
      mailer,
      telegramApiBase: hook.url,
    };
    // The same shape as apps/worker's notify processor, with a short backoff for the test.
    worker = new Worker(
      "notify",
      async (job: Job) => {
        const data = job.data as { deliveryId: string };
        try {
          return await deliverNotification(
            { prisma: db.prisma, secretsKey, send },
            {
              deliveryId: data.deliveryId,
              attempt: job.attemptsMade + 1,
              maxAttempts: NOTIFY_ATTEMPTS,
            },
          );
        } catch (error) {
          if (isAppError(error) && error.code !== "UNAVAILABLE") throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection: (workerRedis = redis.duplicate()),
        prefix: queue.prefix,
        concurrency: 4,
        settings: { backoffStrategy: () => 200 },
      },
    );
    const { node } = await enrollNode(deps, ctxOf(ORG_A), {
      network: "hive",
      apiFamily: "hive",
      clientName: "hived",
      name: "hive-1",
      localRpcUrl: "http://127.0.0.1:8091",
    });
    nodeId = node.id;
    await db.prisma.node.update({ where: { id: nodeId }, data: { lastSeenAt: new Date() } });
  });

  after(async () => {
    await worker?.close();
    await workerRedis?.quit();
    mailer?.close();
    await Promise.all([smtp?.close(), hook?.close(), flaky?.close()]);
    if (queue) {
      await closeQueues(redis);
      await deleteKeys(redis, queue.prefix);
      await redis.quit();
    }
    await db?.drop();
  });

  test("rules are validated, admin-only and org-scoped", async () => {
    const a = ctxOf(ORG_A);
    await assert.rejects(
      createAlertRule(deps, a, { name: "x", type: "lag", target: `node:${nodeId}`, threshold: 5, degraded: 9 }),
      (e: unknown) => isAppError(e) && e.code === "VALIDATION" && e.details?.field === "degraded",
    );
    await assert.rejects(
      createAlertRule(deps, a, { name: "x", type: "endpoint_down", target: `node:${nodeId}` }),
      (e: unknown) => isAppError(e) && e.details?.field === "target",
    );
    await assert.rejects(
      createAlertRule(deps, ctxOf(ORG_B), { name: "x", type: "lag", target: `node:${nodeId}` }),
      (e: unknown) => isAppError(e) && e.details?.field === "target",
    );
    await assert.rejects(
      createAlertRule(deps, ctxOf(ORG_A, "viewer"), { name: "x", type: "lag", target: "org" }),
      (e: unknown) => isAppError(e) && e.code === "FORBIDDEN",
    );
    const rule = await createAlertRule(deps, a, { name: "tmp", type: "lag", target: "org" });
    await assert.rejects(
      updateAlertRule(deps, ctxOf(ORG_B), { ruleId: rule.id, fields: { name: "stolen", type: "lag", target: "org" } }),
      (e: unknown) => isAppError(e) && e.code === "NOT_FOUND",
    );
    await assert.rejects(
      deleteAlertRule(deps, ctxOf(ORG_B), { ruleId: rule.id }),
      (e: unknown) => isAppError(e) && e.code === "NOT_FOUND",
    );
    await deleteAlertRule(deps, a, { ruleId: rule.id });
  });

  test("lag fires with chain-aware text, delivers to every channel (HMAC verified, SMTP received, 503 retried), opens and resolves the incident", async () => {
    const a = ctxOf(ORG_A);
    const webhook = await createAlertChannel(deps, a, { name: "hook", type: "webhook", url: `${hook.url}/alerts` });
    assert.ok(webhook.signingSecret?.startsWith("whsec_"));
    signingSecrets.set("/alerts", webhook.signingSecret ?? "");
    const email = await createAlertChannel(deps, a, {
      name: "mail",
      type: "email",
      to: "ops@example.com, oncall@example.com",
    });
    const slack = await createAlertChannel(deps, a, {
      name: "slack",
      type: "slack",
      url: `${flaky.url}/services/T1/B1/abc`,
    });
    // Stored encrypted: neither the signing secret nor the Slack path is in the row.
    const stored = await db.prisma.alertChannel.findMany({ where: { organizationId: ORG_A } });
    assert.ok(stored.every((c) => !c.configEnc.includes("whsec_") && !c.configEnc.includes("services/T1")));
    assert.ok(!JSON.stringify(await getAlertsOverview(deps, a)).includes(webhook.signingSecret ?? "x"));

    const page = await db.prisma.statusPage.create({
      data: { organizationId: ORG_A, slug: "alerts-a", title: "A", isPublic: true },
    });
    await db.prisma.statusComponent.create({
      data: { pageId: page.id, kind: "node", nodeId, displayName: "Hive node" },
    });

    const rule = await createAlertRule(deps, a, {
      name: "Hive lag",
      type: "lag",
      target: `node:${nodeId}`,
      threshold: 10,
      degraded: "",
      resolveBelow: 3,
      forSeconds: 60,
      resolveForSeconds: 60,
      channelIds: [webhook.channel.id, email.channel.id, slack.channel.id],
    });
    const lagAt = async (s: number, lag: number) => {
      await insertNodeSamples(db.pool, [{ time: at(s), nodeId, lagBlocks: lag, headAgeMs: 3_000 }]);
      await db.prisma.node.update({ where: { id: nodeId }, data: { lastSeenAt: at(s) } });
      return evaluateAlerts(deps, { now: at(s) });
    };
    const first = await lagAt(0, 14);
    assert.equal(first.events, 0);
    const fired = await lagAt(360, 14);
    assert.equal(fired.events, 1);
    assert.equal(fired.deliveries, 3);
    assert.equal(fired.incidentsOpened, 1);

    const event = await db.prisma.alertEvent.findFirstOrThrow({ where: { ruleId: rule.id, kind: "firing" } });
    // Hive produces a block every 3 s: 14 blocks is 42 seconds; held 6 minutes.
    assert.equal(event.title, "hive-1: 14 blocks behind (~42 seconds) for 6 minutes");
    const incident = await db.prisma.incident.findFirstOrThrow({
      where: { organizationId: ORG_A, alertKey: event.dedupKey },
    });
    assert.equal(incident.resolvedAt, null);
    assert.equal(incident.auto, true);
    // The public incident names the component as the page lists it, never the node's own name.
    assert.equal(incident.title, "Hive node: 14 blocks behind (~42 seconds) for 6 minutes");
    const publicUpdates = await db.prisma.incidentUpdate.findMany({ where: { incidentId: incident.id } });
    assert.ok(publicUpdates.length > 0 && publicUpdates.every((u) => !u.body.includes("hive-1")));

    const rows = await waitFor(
      "three deliveries sent",
      async () => {
        const r = await db.prisma.delivery.findMany({ where: { eventId: event.id } });
        return r.length === 3 && r.every((d) => d.status === "sent") ? r : null;
      },
      DELIVERY_WAIT,
    );
    const slackRow = rows.find((d) => d.channelType === "slack");
    assert.equal(slackRow?.attempts, 2, "503 then 200");
    assert.equal(slackRow?.responseCode, 200);
    assert.equal(rows.find((d) => d.channelType === "webhook")?.responseCode, 200, "receiver verified the HMAC");
    const mail = smtp.mails.find((m) => m.to.includes("oncall@example.com"));
    assert.match(mail?.raw ?? "", /14 blocks behind/);

    // A tampered copy of what the receiver got fails verification.
    const got = hook.requests.find((r) => r.path === "/alerts");
    assert.ok(got);
    const header = got.headers[SIGNATURE_HEADER] as string;
    assert.equal(verifyWebhookSignature({ secret: webhook.signingSecret ?? "", header, body: got.body }).ok, true);
    assert.equal(
      verifyWebhookSignature({ secret: webhook.signingSecret ?? "", header, body: got.body.replace("14", "15") }).ok,
      false,
    );

    // Re-evaluating at the same time is idempotent: no second event, no second delivery.
    assert.equal((await evaluateAlerts(deps, { now: at(360) })).events, 0);

    // Recovery: below 3 for resolveFor → resolved notification and the incident resolves.
    await lagAt(400, 1);
    const resolved = await lagAt(470, 0);
    assert.equal(resolved.events, 1);
    assert.equal(resolved.incidentsResolved, 1);
    const after = await db.prisma.incident.findUniqueOrThrow({ where: { id: incident.id } });
    assert.ok(after.resolvedAt);
    const resolvedEvent = await db.prisma.alertEvent.findFirstOrThrow({ where: { ruleId: rule.id, kind: "resolved" } });
    assert.equal(resolvedEvent.dedupKey, event.dedupKey);
    await waitFor(
      "resolved deliveries",
      async () => {
        const r = await db.prisma.delivery.findMany({ where: { eventId: resolvedEvent.id, status: "sent" } });
        return r.length === 3;
      },
      DELIVERY_WAIT,
    );
    await updateAlertRule(deps, a, {
      ruleId: rule.id,
      fields: { name: "Hive lag", type: "lag", target: `node:${nodeId}`, enabled: "false" },
    });
  });

  test("maintenance silences: recorded, not delivered, no incident", async () => {
    const a = ctxOf(ORG_A);
    const page = await db.prisma.statusPage.findFirstOrThrow({ where: { organizationId: ORG_A } });
    const component = await db.prisma.statusComponent.findFirstOrThrow({ where: { pageId: page.id, nodeId } });
    await db.prisma.maintenanceWindow.create({
      data: {
        organizationId: ORG_A,
        pageId: page.id,
        title: "Upgrade",
        startsAt: at(500),
        endsAt: at(900),
        components: { create: [{ componentId: component.id }] },
      },
    });
    const channel = await db.prisma.alertChannel.findFirstOrThrow({ where: { organizationId: ORG_A, name: "hook" } });
    const rule = await createAlertRule(deps, a, {
      name: "Head age",
      type: "head_age",
      target: `node:${nodeId}`,
      threshold: 60,
      degraded: "",
      forSeconds: 30,
      channelIds: [channel.id],
    });
    for (const s of [520, 560]) {
      await insertNodeSamples(db.pool, [{ time: at(s), nodeId, lagBlocks: 0, headAgeMs: 120_000 }]);
      await evaluateAlerts(deps, { now: at(s) });
    }
    const events = await db.prisma.alertEvent.findMany({ where: { ruleId: rule.id } });
    assert.deepEqual(
      events.map((e) => [e.kind, e.silenced]),
      [["firing", true]],
    );
    assert.equal(await db.prisma.delivery.count({ where: { eventId: events[0]?.id } }), 0);
    assert.equal(await db.prisma.incident.count({ where: { alertKey: events[0]?.dedupKey ?? "" } }), 0);
    await deleteAlertRule(deps, a, { ruleId: rule.id });
  });

  test("endpoint down needs a quorum of vantage points", async () => {
    const endpoint = await db.prisma.publicEndpoint.findFirstOrThrow({ where: {} }).catch(async () => {
      const network = await db.prisma.network.findFirstOrThrow({ where: { slug: "hive" } });
      return db.prisma.publicEndpoint.create({
        data: {
          networkId: network.id,
          apiFamily: "hive",
          url: "https://api.example.test",
          name: "example",
          status: "active",
        },
      });
    });
    const vps = await Promise.all(
      ["eu", "us", "ap"].map((region) =>
        db.prisma.vantagePoint.create({ data: { name: `server:${region}-alerts`, region, kind: "server" } }),
      ),
    );
    const rule = await createAlertRule(deps, ctxOf(ORG_A), {
      name: "Endpoint down",
      type: "endpoint_down",
      target: `endpoint:${endpoint.id}`,
      threshold: 50,
      degraded: 1,
      windowMinutes: 3,
      forSeconds: 0,
      resolveForSeconds: 0,
    });
    const probe = (s: number, vp: number, ok: boolean) => ({
      time: at(s),
      endpointId: endpoint.id,
      vantagePointId: vps[vp]?.id ?? "",
      ok,
      totalMs: 100,
      errorClass: ok ? null : "timeout",
    });
    // One region failing: degraded, not down.
    await insertProbeResults(db.pool, [
      probe(600, 0, false),
      probe(610, 0, false),
      probe(600, 1, true),
      probe(610, 1, true),
      probe(600, 2, true),
      probe(610, 2, true),
    ]);
    await evaluateAlerts(deps, { now: at(620) });
    let state = await db.prisma.alertState.findFirstOrThrow({ where: { ruleId: rule.id } });
    assert.equal(state.status, "degraded");
    // Two of three failing: the quorum is reached.
    await insertProbeResults(db.pool, [probe(630, 1, false), probe(640, 1, false), probe(650, 1, false)]);
    await evaluateAlerts(deps, { now: at(655) });
    state = await db.prisma.alertState.findFirstOrThrow({ where: { ruleId: rule.id } });
    assert.equal(state.status, "firing");
    assert.match(state.summary, /67% of vantage points failing \(2 of 3 vantage points/);
  });

  test("direct email and signed webhook deliveries (status-page subscriptions) and the channel Test button", async () => {
    const { deliveryId } = await enqueueEmail(deps, {
      organizationId: null,
      purpose: "status-subscription-confirm",
      to: "subscriber@example.com",
      subject: "Confirm your subscription",
      text: "Follow the link to confirm.",
    });
    await waitFor(
      "email sent",
      async () => (await db.prisma.delivery.findUnique({ where: { id: deliveryId } }))?.status === "sent",
      DELIVERY_WAIT,
    );
    assert.ok(smtp.mails.some((m) => m.to.includes("subscriber@example.com")));

    signingSecrets.set("/subscriber", "whsec_subscriber_secret_0123456789");
    const hooked = await enqueueWebhookPost(deps, {
      organizationId: ORG_A,
      purpose: "status-subscriber-update",
      url: `${hook.url}/subscriber`,
      body: { incident: "x" },
      signingSecret: "whsec_subscriber_secret_0123456789",
    });
    const row = await waitFor(
      "webhook sent",
      async () => {
        const r = await db.prisma.delivery.findUnique({ where: { id: hooked.deliveryId } });
        return r?.status === "sent" ? r : null;
      },
      DELIVERY_WAIT,
    );
    assert.ok(row.secretEnc && !row.secretEnc.includes("whsec_"));

    await assert.rejects(
      enqueueEmail(deps, {
        organizationId: null,
        purpose: "Bad Purpose",
        to: "x@example.com",
        subject: "s",
        text: "t",
      }),
    );

    const tg = await createAlertChannel(deps, ctxOf(ORG_A), {
      name: "tg",
      type: "telegram",
      botToken: "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345",
      chatId: "-1001",
    });
    assert.ok(!tg.channel.summary.includes("ABCdef"));
    const test1 = await testAlertChannel(deps, ctxOf(ORG_A), { channelId: tg.channel.id });
    await waitFor(
      "telegram test sent",
      async () => (await db.prisma.delivery.findUnique({ where: { id: test1.deliveryId } }))?.status === "sent",
      DELIVERY_WAIT,
    );
    assert.ok(hook.requests.some((r) => r.path === "/bot123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345/sendMessage"));
    await assert.rejects(
      testAlertChannel(deps, ctxOf(ORG_B), { channelId: tg.channel.id }),
      (e: unknown) => isAppError(e) && e.code === "NOT_FOUND",
    );
    await assert.rejects(
      testAlertChannel(deps, ctxOf(ORG_A, "viewer"), { channelId: tg.channel.id }),
      (e: unknown) => isAppError(e) && e.code === "FORBIDDEN",
    );

    // The Test button is rate limited per channel (3 a minute).
    await testAlertChannel(deps, ctxOf(ORG_A), { channelId: tg.channel.id });
    await testAlertChannel(deps, ctxOf(ORG_A), { channelId: tg.channel.id });
    await assert.rejects(
      testAlertChannel(deps, ctxOf(ORG_A), { channelId: tg.channel.id }),
      (e: unknown) => isAppError(e) && e.code === "RATE_LIMITED",
    );
    const log = await getAlertsOverview(deps, ctxOf(ORG_A));
    assert.ok(log.deliveries.some((d) => d.purpose === "test" && d.status === "sent"));
    assert.equal((await getAlertsOverview(deps, ctxOf(ORG_B))).deliveries.length, 0);
  });

  test("a final failure (404) is not retried and is visible in the log", async () => {
    const dead = await createAlertChannel(deps, ctxOf(ORG_A), {
      name: "gone",
      type: "discord",
      url: `${hook.url}/nobody`,
    });
    const { deliveryId } = await testAlertChannel(deps, ctxOf(ORG_A), { channelId: dead.channel.id });
    const row = await waitFor(
      "failed",
      async () => {
        const r = await db.prisma.delivery.findUnique({ where: { id: deliveryId } });
        return r?.status === "failed" ? r : null;
      },
      DELIVERY_WAIT,
    );
    assert.equal(row.attempts, 1);
    assert.equal(row.responseCode, 401);
    assert.match(row.lastError ?? "", /HTTP 401/);
  });
});
