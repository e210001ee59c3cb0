import assert from "node:assert/strict";
import { AppError } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { createAuth, type Auth, type AuthMailer, type AuthRateLimits } from "../src/index.js";

export const BASE_URL = "http://localhost:3000";

export interface Harness {
  db: TestDatabase;
  auth: Auth;
  /** A fresh better-auth instance on the same database (a restarted or second web process). */
  restart(): Auth;
  close(): Promise<void>;
}

export async function createHarness(
  options: { demoMode?: boolean; rateLimits?: Partial<AuthRateLimits>; mailer?: AuthMailer } = {},
): Promise<Harness> {
  const db = await createTestDatabase();
  const make = () =>
    createAuth({
      prisma: db.prisma,
      baseUrl: BASE_URL,
      secret: "test-secret-0123456789abcdef0123456789abcdef",
      demoMode: options.demoMode ?? false,
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      ...(options.mailer ? { mailer: options.mailer } : {}),
    });
  return { db, auth: make(), restart: make, close: () => db.drop() };
}

let ipCounter = 0;
/** A distinct client IP per call, so rate limits of one test never touch another. */
export function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

/** Browser-like request headers: same-origin, a client IP, and the session cookies if any. */
export function browserHeaders(opts: { ip?: string; cookies?: string[] } = {}): Headers {
  const headers = new Headers({ origin: BASE_URL, "user-agent": "int-test", "x-forwarded-for": opts.ip ?? nextIp() });
  if (opts.cookies?.length) headers.set("cookie", toCookieHeader(opts.cookies));
  return headers;
}

/** Set-Cookie values → a Cookie request header (drops cookies being cleared). */
export function toCookieHeader(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(";")[0] ?? "")
    .filter((pair) => pair.includes("=") && !pair.endsWith("="))
    .join("; ");
}

/** Awaits `promise` and asserts it failed with this AppError code (and better-auth reason code, if given). */
export async function expectAppError(promise: Promise<unknown>, code: AppError["code"], reason?: string) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (reason) assert.equal((error.details as { reason?: string } | undefined)?.reason, reason, error.message);
    return error;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}
