import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  disableTwoFactor,
  enableTwoFactor,
  getSessionInfo,
  needsSecondFactor,
  signIn,
  signUp,
  verifyBackupCode,
  verifyTotp,
} from "../src/index.js";
import { browserHeaders, createHarness, expectAppError, nextIp, type Harness } from "./harness.js";
import { decodeBase32, hotp, totp } from "./mailbox.js";

const email = "tess@example.org";
const password = "tess-password-1";

function sessionCookie(setCookies: string[]): string | undefined {
  return setCookies.find((c) => /session_token=[^;]/.test(c));
}

describe("TOTP two-factor sign-in", () => {
  let h: Harness;
  let cookies: string[];
  let key: Buffer;
  let backupCodes: string[];

  before(async () => {
    h = await createHarness();
    cookies = (await signUp(h.auth, { name: "Tess", email, password }, browserHeaders())).setCookies;
  });
  after(async () => {
    await h.close();
  });

  test("the test's own RFC 6238 implementation matches the RFC's test vector", () => {
    // RFC 6238 appendix B, SHA-1, T = 59 s: 94287082 (8 digits).
    assert.equal(hotp(Buffer.from("12345678901234567890"), Math.floor(59 / 30), 8), "94287082");
    assert.equal(totp(Buffer.from("12345678901234567890"), 1111111109_000, 8), "07081804");
  });

  test("enable needs the password; the secret and backup codes are stored encrypted", async () => {
    await expectAppError(
      enableTwoFactor(h.auth, { password: "wrong-password" }, browserHeaders({ cookies })),
      "VALIDATION",
      "INVALID_PASSWORD",
    );
    const { data } = await enableTwoFactor(h.auth, { password }, browserHeaders({ cookies }));
    const uri = new URL(data.totpURI);
    assert.equal(uri.protocol, "otpauth:");
    assert.equal(uri.searchParams.get("issuer"), "RPC Pulse");
    const secret = uri.searchParams.get("secret")!;
    key = decodeBase32(secret);
    backupCodes = data.backupCodes;
    assert.equal(backupCodes.length, 10);

    const row = await h.db.prisma.twoFactor.findFirstOrThrow({ where: { user: { email } } });
    assert.equal(row.verified, false, "not on until a code is confirmed");
    assert.ok(!row.secret.includes(secret) && !row.secret.includes(key.toString("utf8")), "secret encrypted");
    assert.match(row.secret, /^[0-9a-f]+$/, "ciphertext (hex)");
    for (const code of backupCodes) assert.ok(!row.backupCodes.includes(code), "backup codes encrypted");

    // Not confirmed yet: sign-in still needs only the password.
    const plain = await signIn(h.auth, { email, password }, browserHeaders());
    assert.equal(needsSecondFactor(plain.data), false);
  });

  test("a confirmed code turns it on; sign-in then asks for a code and a wrong one fails", async () => {
    await expectAppError(
      verifyTotp(h.auth, { code: "000000" === totp(key) ? "111111" : "000000" }, browserHeaders({ cookies })),
      "UNAUTHENTICATED",
    );
    const confirmed = await verifyTotp(h.auth, { code: totp(key) }, browserHeaders({ cookies }));
    cookies = confirmed.setCookies.length ? confirmed.setCookies : cookies;
    const session = await getSessionInfo(h.auth, browserHeaders({ cookies }));
    assert.equal(session?.twoFactorEnabled, true);

    const first = await signIn(h.auth, { email, password }, browserHeaders());
    assert.equal(needsSecondFactor(first.data), true);
    assert.equal(sessionCookie(first.setCookies), undefined, "no session before the second factor");
    const challenge = browserHeaders({ cookies: first.setCookies });
    const wrong = totp(key, Date.now() + 10 * 60_000);
    await expectAppError(verifyTotp(h.auth, { code: wrong }, challenge), "UNAUTHENTICATED", "INVALID_CODE");
    const done = await verifyTotp(h.auth, { code: totp(key) }, browserHeaders({ cookies: first.setCookies }));
    assert.ok(sessionCookie(done.setCookies), "session after the code");
    assert.equal((await getSessionInfo(h.auth, browserHeaders({ cookies: done.setCookies })))?.email, email);
  });

  test("without the challenge cookie a code alone signs nobody in", async () => {
    await expectAppError(verifyTotp(h.auth, { code: totp(key) }, browserHeaders()), "UNAUTHENTICATED");
  });

  test("a backup code works once", async () => {
    const code = backupCodes[0]!;
    const first = await signIn(h.auth, { email, password }, browserHeaders());
    const done = await verifyBackupCode(h.auth, { code }, browserHeaders({ cookies: first.setCookies }));
    assert.ok(sessionCookie(done.setCookies));
    const again = await signIn(h.auth, { email, password }, browserHeaders());
    await expectAppError(
      verifyBackupCode(h.auth, { code }, browserHeaders({ cookies: again.setCookies })),
      "UNAUTHENTICATED",
    );
    const other = await verifyBackupCode(
      h.auth,
      { code: backupCodes[1]! },
      browserHeaders({ cookies: again.setCookies }),
    );
    assert.ok(sessionCookie(other.setCookies), "another unused code still works");
  });

  test("disable needs the password; afterwards the password alone signs in again", async () => {
    await expectAppError(
      disableTwoFactor(h.auth, { password: "wrong-password" }, browserHeaders({ cookies })),
      "VALIDATION",
      "INVALID_PASSWORD",
    );
    const off = await disableTwoFactor(h.auth, { password }, browserHeaders({ cookies, ip: nextIp() }));
    cookies = off.setCookies;
    assert.equal((await getSessionInfo(h.auth, browserHeaders({ cookies })))?.twoFactorEnabled, false);
    assert.equal(await h.db.prisma.twoFactor.count({ where: { user: { email } } }), 0, "secret deleted");
    const plain = await signIn(h.auth, { email, password }, browserHeaders());
    assert.equal(needsSecondFactor(plain.data), false);
    assert.ok(sessionCookie(plain.setCookies));
  });
});
