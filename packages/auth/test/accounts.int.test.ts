import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AppError } from "@rpcpulse/config";
import { changePassword, getSessionInfo, signIn, signUp, callAuthEndpoint } from "../src/index.js";
import { browserHeaders, createHarness, nextIp, type Harness } from "./harness.js";

async function expectAppError(promise: Promise<unknown>, code: AppError["code"]): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}

describe("accounts", () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(async () => {
    await h.close();
  });

  test("sign up creates a user, a scrypt password hash and a session", async () => {
    const { data, setCookies } = await signUp(
      h.auth,
      { name: "Ada", email: "Ada@Example.org", password: "correct horse battery" },
      browserHeaders(),
    );
    assert.equal(data.user.email, "ada@example.org");
    const session = await getSessionInfo(h.auth, browserHeaders({ cookies: setCookies }));
    assert.equal(session?.userId, data.user.id);
    const cookie = setCookies.find((c) => c.includes("session_token="));
    assert.ok(cookie, "session cookie set");
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.doesNotMatch(cookie, /Secure/i, "no Secure flag on an http base URL");

    const account = await h.db.prisma.account.findFirstOrThrow({
      where: { userId: data.user.id, providerId: "credential" },
    });
    assert.ok(account.password);
    assert.notEqual(account.password, "correct horse battery");
    assert.match(account.password, /^[0-9a-f]{32}:[0-9a-f]{128}$/, "salt:scrypt-key, hex");
  });

  test("sign in works with the right password; wrong password and unknown email get the same answer", async () => {
    await signUp(h.auth, { name: "Bo", email: "bo@example.org", password: "bo-password-123" }, browserHeaders());
    const ok = await signIn(h.auth, { email: "bo@example.org", password: "bo-password-123" }, browserHeaders());
    assert.ok(ok.setCookies.some((c) => c.includes("session_token=")));

    const wrong = await expectAppError(
      signIn(h.auth, { email: "bo@example.org", password: "nope-nope-nope" }, browserHeaders()),
      "UNAUTHENTICATED",
    );
    const unknown = await expectAppError(
      signIn(h.auth, { email: "nobody@example.org", password: "nope-nope-nope" }, browserHeaders()),
      "UNAUTHENTICATED",
    );
    assert.equal(wrong.message, unknown.message);
    assert.equal(wrong.message, "Invalid email or password");
  });

  test("a session past its expiry is no longer accepted", async () => {
    const { data, setCookies } = await signUp(
      h.auth,
      { name: "Cy", email: "cy@example.org", password: "cy-password-123" },
      browserHeaders(),
    );
    const headers = browserHeaders({ cookies: setCookies });
    const session = await getSessionInfo(h.auth, headers);
    assert.ok(session);
    const days = (session.expiresAt.getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `session lifetime ${days} days`);
    await h.db.prisma.session.updateMany({
      where: { userId: data.user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    assert.equal(await getSessionInfo(h.auth, headers), null);
  });

  test("changing the password revokes every session, including ones that asked to be kept", async () => {
    const email = "dee@example.org";
    const first = await signUp(h.auth, { name: "Dee", email, password: "dee-password-123" }, browserHeaders());
    const second = await signIn(h.auth, { email, password: "dee-password-123" }, browserHeaders());
    const third = await signIn(h.auth, { email, password: "dee-password-123" }, browserHeaders());

    const changed = await changePassword(
      h.auth,
      { currentPassword: "dee-password-123", newPassword: "dee-password-456" },
      browserHeaders({ cookies: first.setCookies }),
    );
    assert.equal(
      await getSessionInfo(h.auth, browserHeaders({ cookies: first.setCookies })),
      null,
      "own old session ended",
    );
    assert.equal(
      await getSessionInfo(h.auth, browserHeaders({ cookies: second.setCookies })),
      null,
      "other session ended",
    );
    assert.ok(
      await getSessionInfo(h.auth, browserHeaders({ cookies: changed.setCookies })),
      "fresh session for the changer",
    );

    // A client calling the endpoint directly with revokeOtherSessions: false still revokes.
    await callAuthEndpoint(h.auth, {
      path: "/change-password",
      body: { currentPassword: "dee-password-456", newPassword: "dee-password-789", revokeOtherSessions: false },
      headers: browserHeaders({ cookies: changed.setCookies }),
    });
    assert.equal(await getSessionInfo(h.auth, browserHeaders({ cookies: third.setCookies })), null);
    assert.equal(await getSessionInfo(h.auth, browserHeaders({ cookies: changed.setCookies })), null);
    await signIn(h.auth, { email, password: "dee-password-789" }, browserHeaders());
  });

  test("state-changing requests with a session cookie from another origin are refused (CSRF)", async () => {
    const { setCookies } = await signUp(
      h.auth,
      { name: "Eve", email: "eve@example.org", password: "eve-password-123" },
      browserHeaders(),
    );
    const headers = browserHeaders({ cookies: setCookies });
    headers.set("origin", "https://evil.example");
    await expectAppError(
      changePassword(h.auth, { currentPassword: "eve-password-123", newPassword: "eve-password-456" }, headers),
      "FORBIDDEN",
    );
  });
});

describe("rate limits", () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ rateLimits: { signIn: { window: 60, max: 5 } } });
  });
  after(async () => {
    await h.close();
  });

  test("sign-in is limited per client IP, in the database, across restarts and instances", async () => {
    await signUp(h.auth, { name: "Fay", email: "fay@example.org", password: "fay-password-123" }, browserHeaders());
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      await expectAppError(
        signIn(h.auth, { email: "fay@example.org", password: "wrong-password" }, browserHeaders({ ip })),
        "UNAUTHENTICATED",
      );
    }
    const limited = await expectAppError(
      signIn(h.auth, { email: "fay@example.org", password: "fay-password-123" }, browserHeaders({ ip })),
      "RATE_LIMITED",
    );
    assert.ok((limited.retryAfterSeconds ?? 0) > 0);

    // A restarted (or second) web process sees the same counter: it lives in rate_limits.
    await expectAppError(
      signIn(h.restart(), { email: "fay@example.org", password: "fay-password-123" }, browserHeaders({ ip })),
      "RATE_LIMITED",
    );
    const rows = await h.db.prisma.rateLimit.count({ where: { key: { startsWith: `${ip}|` } } });
    assert.equal(rows, 1);

    // Another client is not affected.
    await signIn(h.auth, { email: "fay@example.org", password: "fay-password-123" }, browserHeaders());
  });
});
