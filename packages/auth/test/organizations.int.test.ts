import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AppError } from "@rpcpulse/config";
import { requireRole, resolveServiceContext } from "@rpcpulse/services/context";
import {
  acceptInvitation,
  callAuthEndpoint,
  createOrganization,
  getInvitation,
  inviteMember,
  removeMember,
  signUp,
  updateMemberRole,
} from "../src/index.js";
import { browserHeaders, createHarness, type Harness } from "./harness.js";

async function expectAppError(promise: Promise<unknown>, ...codes: AppError["code"][]): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.ok(codes.includes(error.code), `${error.code}: ${error.message}`);
    return error;
  }
  assert.fail(`expected ${codes.join("/")}, but the call succeeded`);
}

interface User {
  id: string;
  email: string;
  cookies: string[];
}

async function newUser(h: Harness, name: string): Promise<User> {
  const email = `${name}@example.org`;
  const { data, setCookies } = await signUp(h.auth, { name, email, password: `${name}-password-1` }, browserHeaders());
  return { id: data.user.id, email, cookies: setCookies };
}

/** Invite `user` into `orgId` as `role` (by `inviter`) and accept it. */
async function join(
  h: Harness,
  inviter: User,
  user: User,
  orgId: string,
  role: "owner" | "admin" | "viewer",
): Promise<string> {
  const { data } = await inviteMember(
    h.auth,
    { organizationId: orgId, email: user.email, role },
    browserHeaders({ cookies: inviter.cookies }),
  );
  await acceptInvitation(h.auth, { invitationId: data.id }, browserHeaders({ cookies: user.cookies }));
  const member = await h.db.prisma.member.findFirstOrThrow({ where: { organizationId: orgId, userId: user.id } });
  return member.id;
}

describe("organizations, roles and invitations", () => {
  let h: Harness;
  let owner: User;
  let admin: User;
  let viewer: User;
  let orgId: string;
  let viewerMemberId: string;

  before(async () => {
    h = await createHarness();
    owner = await newUser(h, "owner");
    admin = await newUser(h, "admin");
    viewer = await newUser(h, "viewer");
    const { data } = await createOrganization(
      h.auth,
      { name: "Validators", slug: "validators" },
      browserHeaders({ cookies: owner.cookies }),
    );
    orgId = data.id;
    await join(h, owner, admin, orgId, "admin");
    viewerMemberId = await join(h, owner, viewer, orgId, "viewer");
  });
  after(async () => {
    await h.close();
  });

  test("the creator is owner; invited members get the role they were invited with", async () => {
    const rows = await h.db.prisma.member.findMany({
      where: { organizationId: orgId },
      select: { userId: true, role: true },
    });
    const roleOf = (u: User) => rows.find((r) => r.userId === u.id)?.role;
    assert.equal(roleOf(owner), "owner");
    assert.equal(roleOf(admin), "admin");
    assert.equal(roleOf(viewer), "viewer");
  });

  test("service context comes from membership; requireRole ranks viewer < admin < owner", async () => {
    const deps = { prisma: h.db.prisma };
    const vctx = await resolveServiceContext(deps, { userId: viewer.id, organizationSlug: "validators" });
    assert.equal(vctx.role, "viewer");
    assert.throws(
      () => requireRole(vctx, "admin"),
      (e) => e instanceof AppError && e.code === "FORBIDDEN",
    );
    const actx = await resolveServiceContext(deps, { userId: admin.id, organizationId: orgId });
    requireRole(actx, "admin");
    assert.throws(
      () => requireRole(actx, "owner"),
      (e) => e instanceof AppError && e.code === "FORBIDDEN",
    );
    const outsider = await newUser(h, "outsider");
    await expectAppError(resolveServiceContext(deps, { userId: outsider.id, organizationId: orgId }), "NOT_FOUND");
  });

  test("viewers cannot invite, change roles or remove members", async () => {
    await expectAppError(
      inviteMember(
        h.auth,
        { organizationId: orgId, email: "x@example.org", role: "viewer" },
        browserHeaders({ cookies: viewer.cookies }),
      ),
      "FORBIDDEN",
      "UNAUTHENTICATED",
    );
    const adminMember = await h.db.prisma.member.findFirstOrThrow({
      where: { organizationId: orgId, userId: admin.id },
    });
    await expectAppError(
      updateMemberRole(
        h.auth,
        { organizationId: orgId, memberId: adminMember.id, role: "viewer" },
        browserHeaders({ cookies: viewer.cookies }),
      ),
      "FORBIDDEN",
      "UNAUTHENTICATED",
    );
    await expectAppError(
      removeMember(
        h.auth,
        { organizationId: orgId, memberId: adminMember.id },
        browserHeaders({ cookies: viewer.cookies }),
      ),
      "FORBIDDEN",
      "UNAUTHENTICATED",
    );
  });

  test("admins invite and manage members but cannot grant owner or delete the organization", async () => {
    await inviteMember(
      h.auth,
      { organizationId: orgId, email: "new@example.org", role: "viewer" },
      browserHeaders({ cookies: admin.cookies }),
    );
    await expectAppError(
      inviteMember(
        h.auth,
        { organizationId: orgId, email: "boss@example.org", role: "owner" },
        browserHeaders({ cookies: admin.cookies }),
      ),
      "FORBIDDEN",
    );
    await updateMemberRole(
      h.auth,
      { organizationId: orgId, memberId: viewerMemberId, role: "admin" },
      browserHeaders({ cookies: admin.cookies }),
    );
    await updateMemberRole(
      h.auth,
      { organizationId: orgId, memberId: viewerMemberId, role: "viewer" },
      browserHeaders({ cookies: admin.cookies }),
    );
    await expectAppError(
      callAuthEndpoint(h.auth, {
        path: "/organization/delete",
        body: { organizationId: orgId },
        headers: browserHeaders({ cookies: admin.cookies }),
      }),
      "FORBIDDEN",
      "UNAUTHENTICATED",
    );
    assert.ok(await h.db.prisma.organization.findUnique({ where: { id: orgId } }));
  });

  test("only the owner deletes the organization", async () => {
    const { data } = await createOrganization(
      h.auth,
      { name: "Scratch", slug: "scratch" },
      browserHeaders({ cookies: owner.cookies }),
    );
    await callAuthEndpoint(h.auth, {
      path: "/organization/delete",
      body: { organizationId: data.id },
      headers: browserHeaders({ cookies: owner.cookies }),
    });
    assert.equal(await h.db.prisma.organization.findUnique({ where: { id: data.id } }), null);
  });

  test("an invitation is accepted only by its recipient, and only before it expires", async () => {
    const invitee = await newUser(h, "invitee");
    const stranger = await newUser(h, "stranger");
    const { data } = await inviteMember(
      h.auth,
      { organizationId: orgId, email: invitee.email, role: "viewer" },
      browserHeaders({ cookies: owner.cookies }),
    );
    const days = (new Date(data.expiresAt).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `invitation lifetime ${days} days`);

    await expectAppError(
      getInvitation(h.auth, { invitationId: data.id }, browserHeaders({ cookies: stranger.cookies })),
      "FORBIDDEN",
    );
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: data.id }, browserHeaders({ cookies: stranger.cookies })),
      "FORBIDDEN",
    );

    await h.db.prisma.invitation.update({ where: { id: data.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: data.id }, browserHeaders({ cookies: invitee.cookies })),
      "NOT_FOUND",
    );
    assert.equal(await h.db.prisma.member.count({ where: { organizationId: orgId, userId: invitee.id } }), 0);

    const again = await inviteMember(
      h.auth,
      { organizationId: orgId, email: invitee.email, role: "viewer" },
      browserHeaders({ cookies: owner.cookies }),
    );
    const details = await getInvitation(
      h.auth,
      { invitationId: again.data.id },
      browserHeaders({ cookies: invitee.cookies }),
    );
    assert.equal(details.data.organizationName, "Validators");
    await acceptInvitation(h.auth, { invitationId: again.data.id }, browserHeaders({ cookies: invitee.cookies }));
    assert.equal(await h.db.prisma.member.count({ where: { organizationId: orgId, userId: invitee.id } }), 1);
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: again.data.id }, browserHeaders({ cookies: invitee.cookies })),
      "NOT_FOUND",
    );
  });
});
