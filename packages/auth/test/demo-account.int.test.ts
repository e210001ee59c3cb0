import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { AppError } from "@rpcpulse/config";
import { changePassword, DEMO_EMAIL, DEMO_ORG_SLUG, DEMO_PASSWORD, ensureDemoAccount, signIn } from "../src/index.js";
import { browserHeaders, createHarness, type Harness } from "./harness.js";

describe("demo account", () => {
  const harnesses: Harness[] = [];
  after(async () => {
    await Promise.all(harnesses.map((h) => h.close()));
  });

  test("is never created when demo mode is off", async () => {
    const h = await createHarness({ demoMode: false });
    harnesses.push(h);
    assert.deepEqual(await ensureDemoAccount({ auth: h.auth, demoMode: false }), { status: "disabled" });
    assert.equal(await h.db.prisma.user.count({ where: { email: DEMO_EMAIL } }), 0);
    assert.equal(await h.db.prisma.organization.count({ where: { slug: DEMO_ORG_SLUG } }), 0);
    await assert.rejects(
      signIn(h.auth, { email: DEMO_EMAIL, password: DEMO_PASSWORD }, browserHeaders()),
      (e) => e instanceof AppError && e.code === "UNAUTHENTICATED",
    );
  });

  test("is created once in demo mode: owner of Demo fleet, password cannot be changed", async () => {
    const h = await createHarness({ demoMode: true });
    harnesses.push(h);
    const first = await ensureDemoAccount({ auth: h.auth, demoMode: true });
    assert.equal(first.status, "created");
    const second = await ensureDemoAccount({ auth: h.auth, demoMode: true });
    assert.equal(second.status, "exists");
    const org = await h.db.prisma.organization.findUniqueOrThrow({
      where: { slug: DEMO_ORG_SLUG },
      include: { members: true },
    });
    assert.equal(org.name, "Demo fleet");
    assert.deepEqual(
      org.members.map((m) => m.role),
      ["owner"],
    );
    const { setCookies } = await signIn(h.auth, { email: DEMO_EMAIL, password: DEMO_PASSWORD }, browserHeaders());
    await assert.rejects(
      changePassword(
        h.auth,
        { currentPassword: DEMO_PASSWORD, newPassword: "taken-over-123" },
        browserHeaders({ cookies: setCookies }),
      ),
      (e) => e instanceof AppError && e.code === "FORBIDDEN",
    );
  });
});
