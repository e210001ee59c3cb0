import { expect, test } from "@playwright/test";

test("GET /api/health reports database, redis and workers", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toContain("no-store");
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    status: "ok",
    version: expect.any(String),
    database: { ok: true, latencyMs: expect.any(Number), mode: expect.stringMatching(/^(timescale|plain)$/) },
    redis: { ok: true, latencyMs: expect.any(Number) },
  });
  expect(Array.isArray(body.workers)).toBe(true);
  for (const worker of body.workers as Record<string, unknown>[]) {
    expect(worker).toMatchObject({
      id: expect.any(String),
      role: expect.any(String),
      lastSeenAt: expect.any(String),
      ageSeconds: expect.any(Number),
      version: expect.any(String),
    });
  }
});

test("security headers are set on pages", async ({ request }) => {
  const response = await request.get("/sign-in");
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
});
