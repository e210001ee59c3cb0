import type { Auth } from "./create-auth.js";
import { DEMO_EMAIL, DEMO_ORG_NAME, DEMO_ORG_SLUG, DEMO_PASSWORD } from "./demo-constants.js";

export type EnsureDemoAccountResult =
  | { status: "disabled" }
  | { status: "exists"; userId: string; organizationId: string }
  | { status: "created"; userId: string; organizationId: string };

/**
 * Create the demo login (demo@rpcpulse.dev, owner of "Demo fleet") when DEMO_MODE is on.
 * Idempotent. With demoMode false it does nothing at all: a real deployment never gets an
 * account whose password is published.
 */
export async function ensureDemoAccount(deps: { auth: Auth; demoMode: boolean }): Promise<EnsureDemoAccountResult> {
  if (!deps.demoMode) return { status: "disabled" };
  const { auth } = deps;
  const ctx = await auth.$context;

  let created = false;
  let userId = (await ctx.internalAdapter.findUserByEmail(DEMO_EMAIL))?.user.id;
  if (!userId) {
    // Server-side call (no request): not rate limited, sets no cookie.
    const result = await auth.api.signUpEmail({
      body: { email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo operator" },
    });
    userId = result.user.id;
    // Nobody reads the demo address: count it as verified (no banner, and it can accept invitations).
    await ctx.internalAdapter.updateUser(userId, { emailVerified: true });
    created = true;
  }

  let org = await ctx.adapter.findOne<{ id: string }>({
    model: "organization",
    where: [{ field: "slug", value: DEMO_ORG_SLUG }],
  });
  if (!org) {
    const result = await auth.api.createOrganization({
      body: { name: DEMO_ORG_NAME, slug: DEMO_ORG_SLUG, userId },
    });
    if (!result) throw new Error("demo organization was not created");
    org = { id: result.id };
    created = true;
  }

  const membership = await ctx.adapter.findOne<{ id: string }>({
    model: "member",
    where: [
      { field: "organizationId", value: org.id },
      { field: "userId", value: userId },
    ],
  });
  if (!membership) {
    await auth.api.addMember({ body: { organizationId: org.id, userId, role: "owner" } });
    created = true;
  }

  return { status: created ? "created" : "exists", userId, organizationId: org.id };
}
