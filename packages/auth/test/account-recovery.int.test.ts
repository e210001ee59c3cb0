import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  checkPasswordResetLink,
  getSessionInfo,
  requestPasswordReset,
  resetPassword,
  sendVerificationEmail,
  signIn,
  signUp,
  verifyEmail,
} from "../src/index.js";
import { browserHeaders, createHarness, expectAppError, type Harness } from "./harness.js";
import { hashedIdentifier, linkIn, startMailbox } from "./mailbox.js";

type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

const RESET = /Reset your RPC Pulse password/;
const VERIFY = /Confirm your email address/;

describe("password reset and email verification through a real SMTP server", () => {
  let h: Harness;
  let mail: Mailbox;
  before(async () => {
    mail = await startMailbox();
    h = await createHarness({ mailer: mail.mailer });
  });
  after(async () => {
    await h.close();
    await mail.close();
  });

  test("reset: mail with a single-use link, new password works, old fails, every session revoked", async () => {
    const email = "rita@example.org";
    const { data, setCookies } = await signUp(
      h.auth,
      { name: "Rita", email, password: "old-password-1" },
      browserHeaders(),
    );
    const other = await signIn(h.auth, { email, password: "old-password-1" }, browserHeaders());

    // Same answer for a known and an unknown address; only the known one gets mail.
    const ip = "203.0.113.10";
    const known = await requestPasswordReset(h.auth, { email }, browserHeaders({ ip }));
    const unknown = await requestPasswordReset(h.auth, { email: "nobody@example.org" }, browserHeaders({ ip }));
    assert.deepEqual(known.data, unknown.data);
    const message = await mail.waitFor(email, RESET);
    assert.match(message.text, /expires in 1 hour/);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await mail.count("nobody@example.org", RESET), 0);

    const link = linkIn(message, "http://localhost:3000/reset-password?token=");
    const token = link.searchParams.get("token")!;
    assert.equal(await checkPasswordResetLink(h.auth, token), "valid");
    // The token is stored only as its SHA-256; one row, expiring in an hour.
    const rows = await h.db.prisma.verification.findMany({ where: { value: data.user.id } });
    assert.ok(
      rows.every((r) => !r.identifier.includes(token)),
      "no plaintext token at rest",
    );
    const row = rows.find((r) => r.identifier === hashedIdentifier(`reset-password:${token}`));
    assert.ok(row, "hashed reset row");
    const minutes = (row.expiresAt.getTime() - Date.now()) / 60_000;
    assert.ok(minutes > 59 && minutes <= 60, `expires in ${minutes} min`);

    await resetPassword(h.auth, { token, newPassword: "new-password-22" }, browserHeaders());
    assert.equal(
      await getSessionInfo(h.auth, browserHeaders({ cookies: setCookies })),
      null,
      "sign-up session revoked",
    );
    assert.equal(
      await getSessionInfo(h.auth, browserHeaders({ cookies: other.setCookies })),
      null,
      "other session revoked",
    );
    await expectAppError(signIn(h.auth, { email, password: "old-password-1" }, browserHeaders()), "UNAUTHENTICATED");
    const fresh = await signIn(h.auth, { email, password: "new-password-22" }, browserHeaders());
    const session = await getSessionInfo(h.auth, browserHeaders({ cookies: fresh.setCookies }));
    assert.equal(session?.email, email);
    assert.equal(session?.emailVerified, true, "a reset link proves the address");

    // The link works once.
    assert.equal(await checkPasswordResetLink(h.auth, token), "invalid");
    await expectAppError(
      resetPassword(h.auth, { token, newPassword: "third-password-3" }, browserHeaders()),
      "VALIDATION",
      "INVALID_TOKEN",
    );
    await expectAppError(signIn(h.auth, { email, password: "third-password-3" }, browserHeaders()), "UNAUTHENTICATED");
  });

  test("reset: an expired link is refused and changes nothing", async () => {
    const email = "eli@example.org";
    await signUp(h.auth, { name: "Eli", email, password: "eli-password-1" }, browserHeaders());
    const before = await mail.received();
    await requestPasswordReset(h.auth, { email }, browserHeaders());
    const token = linkIn(
      await mail.waitFor(email, RESET, 5_000, before),
      "http://localhost:3000/reset-password?token=",
    ).searchParams.get("token")!;
    const updated = await h.db.prisma.verification.updateMany({
      where: { identifier: hashedIdentifier(`reset-password:${token}`) },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    assert.equal(updated.count, 1);
    assert.equal(await checkPasswordResetLink(h.auth, token), "expired");
    await expectAppError(
      resetPassword(h.auth, { token, newPassword: "eli-password-2" }, browserHeaders()),
      "VALIDATION",
      "INVALID_TOKEN",
    );
    await expectAppError(signIn(h.auth, { email, password: "eli-password-2" }, browserHeaders()), "UNAUTHENTICATED");
    await signIn(h.auth, { email, password: "eli-password-1" }, browserHeaders());
  });

  test("reset requests take as long for an unknown address as for a known one (the mail goes out in the background)", async (t) => {
    await signUp(h.auth, { name: "Tim", email: "tim@example.org", password: "tim-password-1" }, browserHeaders());
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const time = async (email: string) => {
      const started = performance.now();
      await requestPasswordReset(h.auth, { email }, browserHeaders());
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      known.push(await time("tim@example.org"));
      unknown.push(await time(`ghost-${i}@example.org`));
    }
    t.diagnostic(`median ms: known ${median(known).toFixed(1)}, unknown ${median(unknown).toFixed(1)}`);
    assert.ok(Math.abs(median(known) - median(unknown)) < 100, "no timing oracle of SMTP size");
  });

  test("one address gets at most 3 reset mails an hour, from however many clients", async () => {
    const email = "flo@example.org";
    await signUp(h.auth, { name: "Flo", email, password: "flo-password-1" }, browserHeaders());
    const answers: unknown[] = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push((await requestPasswordReset(h.auth, { email }, browserHeaders())).data);
    }
    assert.ok(
      answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0])),
      "same answer every time",
    );
    await mail.waitFor(email, RESET);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await mail.count(email, RESET), 3);
  });

  test("reset requests are rate limited per client", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < 3; i += 1) {
      await requestPasswordReset(h.auth, { email: `limit-${i}@example.org` }, browserHeaders({ ip }));
    }
    await expectAppError(
      requestPasswordReset(h.auth, { email: "limit-4@example.org" }, browserHeaders({ ip })),
      "RATE_LIMITED",
    );
  });

  test("verification: sign-up mails a link that works once; the session then says verified", async () => {
    const email = "vera@example.org";
    const { setCookies } = await signUp(
      h.auth,
      { name: "Vera", email, password: "vera-password-1" },
      browserHeaders(),
      { next: "/invite/abc123" },
    );
    const cookies = browserHeaders({ cookies: setCookies });
    assert.equal((await getSessionInfo(h.auth, cookies))?.emailVerified, false, "unverified users can sign in");
    const message = await mail.waitFor(email, VERIFY);
    const link = linkIn(message, "http://localhost:3000/verify-email?token=");
    assert.equal(link.searchParams.get("next"), "/invite/abc123", "continues where the user came from");
    const token = link.searchParams.get("token")!;

    await verifyEmail(h.auth, { token }, browserHeaders());
    assert.equal((await getSessionInfo(h.auth, browserHeaders({ cookies: setCookies })))?.emailVerified, true);
    await expectAppError(verifyEmail(h.auth, { token }, browserHeaders()), "VALIDATION", "VERIFICATION_LINK_USED");
  });

  test("verification: resend gives a fresh link; an expired or forged link verifies nothing", async () => {
    const email = "otto@example.org";
    const { data, setCookies } = await signUp(
      h.auth,
      { name: "Otto", email, password: "otto-password-1" },
      browserHeaders(),
    );
    await mail.waitFor(email, VERIFY);
    const before = await mail.received();
    await sendVerificationEmail(h.auth, { email }, browserHeaders({ cookies: setCookies }));
    const token = linkIn(
      await mail.waitFor(email, VERIFY, 5_000, before),
      "http://localhost:3000/verify-email?token=",
    ).searchParams.get("token")!;
    const updated = await h.db.prisma.verification.updateMany({
      where: { identifier: hashedIdentifier(`verify-email:${token}`) },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    // (A resend within the same second signs the same token: one identifier, possibly two rows.)
    assert.ok(updated.count >= 1, "the link is stored hashed, with its expiry");
    await expectAppError(verifyEmail(h.auth, { token }, browserHeaders()), "VALIDATION", "TOKEN_EXPIRED");
    await expectAppError(verifyEmail(h.auth, { token: "forged.jwt.value" }, browserHeaders()), "VALIDATION");
    const user = await h.db.prisma.user.findUniqueOrThrow({ where: { id: data.user.id } });
    assert.equal(user.emailVerified, false);
  });
});

describe("without a mail relay", () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(async () => {
    await h.close();
  });

  test("password reset by email is refused (the UI tells users to ask their administrator)", async () => {
    await expectAppError(
      requestPasswordReset(h.auth, { email: "x@example.org" }, browserHeaders()),
      "VALIDATION",
      "RESET_PASSWORD_DISABLED",
    );
  });
});
