import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createSafeHttpClient } from "@rpcpulse/prober";
import {
  createMailer,
  generateSigningSecret,
  sendEmail,
  sendToChannel,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
  type NotificationMessage,
} from "../src/index.js";
import { startHttpReceiver, startSmtpReceiver } from "../src/testing.js";

const message: NotificationMessage = {
  kind: "firing",
  title: "hive-1: 14 blocks behind for 6 minutes",
  body: "Lag above 10 blocks since 05:40 UTC.",
  fields: [{ name: "Rule", value: "Lag > 10 blocks" }],
  eventId: "evt-1",
  organization: "Demo <Org>",
  occurredAt: new Date("2026-11-22T05:46:00Z"),
  url: "http://localhost:3000/app/o/demo/alerts",
};

const privateClient = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 });
const publicClient = createSafeHttpClient({ timeoutMs: 5_000 });

describe("email over SMTP", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  before(async () => {
    smtp = await startSmtpReceiver({
      rejectRcpt: (to) => (to.startsWith("gone@") ? 550 : to.startsWith("busy@") ? 451 : null),
    });
  });
  after(() => smtp.close());

  it("delivers a real message to the SMTP server", async () => {
    const outcome = await sendEmail(
      { url: smtp.url, from: "alerts@rpcpulse.test" },
      { to: "ops@example.com", subject: "Confirm your subscription", text: "Click the link." },
    );
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const mail = smtp.mails.at(-1);
    assert.deepEqual(mail?.to, ["ops@example.com"]);
    assert.equal(mail?.from, "alerts@rpcpulse.test");
    assert.match(mail?.raw ?? "", /Subject: Confirm your subscription/);
  });

  it("formats alert emails with escaped HTML through a pooled mailer", async () => {
    const mailer = createMailer({ url: smtp.url, from: "alerts@rpcpulse.test" });
    try {
      const outcome = await sendToChannel({ type: "email", to: ["a@example.com", "b@example.com"] }, message, {
        client: privateClient,
        mailer,
      });
      assert.equal(outcome.ok, true);
      const mail = smtp.mails.at(-1);
      assert.deepEqual(mail?.to, ["a@example.com", "b@example.com"]);
      assert.match(mail?.raw ?? "", /\[FIRING\] hive-1: 14 blocks behind for 6 minutes/);
      assert.match(mail?.raw ?? "", /Demo &lt;Org&gt;|Demo <Org>/);
      assert.doesNotMatch(mail?.raw ?? "", /<p[^>]*>Demo <Org>/);
    } finally {
      mailer.close();
    }
  });

  it("treats 5xx replies as final and 4xx replies as retryable", async () => {
    const gone = await sendEmail(
      { url: smtp.url, from: "a@rpcpulse.test" },
      { to: "gone@example.com", subject: "x", text: "x" },
    );
    assert.equal(gone.ok, false);
    assert.equal(!gone.ok && gone.retryable, false);
    assert.equal(gone.responseCode, 550);
    const busy = await sendEmail(
      { url: smtp.url, from: "a@rpcpulse.test" },
      { to: "busy@example.com", subject: "x", text: "x" },
    );
    assert.equal(!busy.ok && busy.retryable, true);
  });

  it("reports a closed port as retryable and no SMTP as final", async () => {
    const outcome = await sendEmail(
      { url: "smtp://127.0.0.1:1", from: "a@rpcpulse.test", connectionTimeoutMs: 2_000 },
      { to: "x@example.com", subject: "x", text: "x" },
    );
    assert.equal(!outcome.ok && outcome.retryable, true);
    const none = await sendToChannel({ type: "email", to: ["x@example.com"] }, message, {
      client: privateClient,
      mailer: null,
    });
    assert.equal(!none.ok && none.retryable, false);
  });
});

describe("signed webhook", () => {
  const secret = generateSigningSecret();
  let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
  before(async () => {
    // The receiver does what the README recipe says: verify over the raw body, 401 when it fails.
    receiver = await startHttpReceiver((req) => {
      const header = req.headers[SIGNATURE_HEADER];
      const verdict = verifyWebhookSignature({
        secret,
        header: typeof header === "string" ? header : null,
        body: req.body,
      });
      return verdict.ok ? 204 : 401;
    });
  });
  after(() => receiver.close());

  it("posts a body the receiver verifies", async () => {
    const outcome = await sendToChannel({ type: "webhook", url: `${receiver.url}/hook`, secret }, message, {
      client: privateClient,
      mailer: null,
    });
    assert.deepEqual(outcome, { ok: true, responseCode: 204, detail: "" });
    const req = receiver.requests.at(-1);
    const parsed = JSON.parse(req?.body ?? "{}") as { eventId: string; kind: string; version: number };
    assert.equal(parsed.eventId, "evt-1");
    assert.equal(parsed.kind, "firing");
    assert.equal(parsed.version, 1);
  });

  it("rejects a tampered body, a wrong secret and a replayed timestamp", () => {
    const req = receiver.requests.at(-1);
    assert.ok(req);
    const header = req.headers[SIGNATURE_HEADER] as string;
    assert.equal(verifyWebhookSignature({ secret, header, body: req.body }).ok, true);
    const tampered = req.body.replace("firing", "resolved");
    assert.deepEqual(verifyWebhookSignature({ secret, header, body: tampered }), {
      ok: false,
      reason: "signature mismatch",
    });
    assert.equal(verifyWebhookSignature({ secret: generateSigningSecret(), header, body: req.body }).ok, false);
    const later = new Date(Date.now() + 10 * 60_000);
    assert.deepEqual(verifyWebhookSignature({ secret, header, body: req.body, now: later }), {
      ok: false,
      reason: "timestamp outside the replay window",
    });
    assert.equal(verifyWebhookSignature({ secret, header: null, body: req.body }).ok, false);
  });

  it("signs with a stale clock: the receiver refuses it (401, final)", async () => {
    const old = new Date(Date.now() - 3_600_000);
    const outcome = await sendToChannel({ type: "webhook", url: receiver.url, secret }, message, {
      client: privateClient,
      mailer: null,
      now: () => old,
    });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.responseCode, 401);
    assert.equal(!outcome.ok && outcome.retryable, false);
  });
});

describe("Slack, Discord and Telegram payloads", () => {
  let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
  before(async () => {
    receiver = await startHttpReceiver((req) => (req.path.includes("fail") ? 503 : 200));
  });
  after(() => receiver.close());

  it("Slack gets text and blocks", async () => {
    const outcome = await sendToChannel({ type: "slack", url: `${receiver.url}/services/T/B/x` }, message, {
      client: privateClient,
      mailer: null,
    });
    assert.equal(outcome.ok, true);
    const body = JSON.parse(receiver.requests.at(-1)?.body ?? "{}") as { text: string; blocks: unknown[] };
    assert.equal(body.text, "FIRING: hive-1: 14 blocks behind for 6 minutes");
    assert.ok(body.blocks.length >= 2);
  });

  it("Discord gets one embed with colour and fields, no mentions", async () => {
    await sendToChannel(
      { type: "discord", url: `${receiver.url}/api/webhooks/1/abc` },
      { ...message, kind: "resolved" },
      { client: privateClient, mailer: null },
    );
    const body = JSON.parse(receiver.requests.at(-1)?.body ?? "{}") as {
      embeds: Array<{ color: number; fields: unknown[]; title: string }>;
      allowed_mentions: { parse: unknown[] };
    };
    assert.equal(body.embeds[0]?.color, 0x1f7a4d);
    assert.equal(body.embeds[0]?.title.startsWith("RESOLVED"), true);
    assert.deepEqual(body.allowed_mentions.parse, []);
  });

  it("Telegram calls sendMessage on the configured base with HTML-escaped text", async () => {
    const botToken = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345";
    const outcome = await sendToChannel({ type: "telegram", botToken, chatId: "-100123" }, message, {
      client: privateClient,
      mailer: null,
      telegramApiBase: receiver.url,
    });
    assert.equal(outcome.ok, true);
    const req = receiver.requests.at(-1);
    assert.equal(req?.path, `/bot${botToken}/sendMessage`);
    const body = JSON.parse(req?.body ?? "{}") as { chat_id: string; parse_mode: string; text: string };
    assert.equal(body.chat_id, "-100123");
    assert.equal(body.parse_mode, "HTML");
    assert.match(body.text, /Demo &lt;Org&gt;|Lag above/);
  });

  it("5xx is retryable and the Telegram token never reaches the error text", async () => {
    const outcome = await sendToChannel({ type: "slack", url: `${receiver.url}/fail` }, message, {
      client: privateClient,
      mailer: null,
    });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.retryable, true);
    const botToken = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345";
    const blocked = await sendToChannel({ type: "telegram", botToken, chatId: "1" }, message, {
      client: publicClient,
      mailer: null,
      telegramApiBase: receiver.url,
    });
    assert.equal(blocked.ok, false);
    assert.equal(!blocked.ok && blocked.error.includes(botToken), false);
  });

  it("without allowPrivate, loopback and metadata targets are refused before any connection (final)", async () => {
    const before = receiver.requests.length;
    for (const url of [`${receiver.url}/x`, "http://169.254.169.254/latest", "http://localhost:8080/"]) {
      const outcome = await sendToChannel({ type: "slack", url }, message, { client: publicClient, mailer: null });
      assert.equal(outcome.ok, false, url);
      assert.equal(!outcome.ok && outcome.retryable, false, url);
      assert.match(!outcome.ok ? outcome.error : "", /ssrf_blocked/);
    }
    assert.equal(receiver.requests.length, before);
  });
});
