import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  acceptInvitation,
  cancelInvitation,
  createOrganization,
  describeInvitationLink,
  getInvitation,
  inviteMember,
  signUp,
  verifyEmail,
} from "../src/index.js";
import { browserHeaders, createHarness, expectAppError, type Harness } from "./harness.js";
import { linkIn, startMailbox } from "./mailbox.js";

type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

describe("invitation emails and verified invitees (real SMTP server)", () => {
  let h: Harness;
  let mail: Mailbox;
  let ownerCookies: string[];
  let orgId: string;

  async function newUser(name: string) {
    const email = `${name}@example.org`;
    const { data, setCookies } = await signUp(
      h.auth,
      { name, email, password: `${name}-password-1` },
      browserHeaders(),
    );
    return { id: data.user.id, email, cookies: setCookies };
  }

  async function verify(email: string): Promise<void> {
    const link = linkIn(await mail.waitFor(email, /Confirm your email/), "http://localhost:3000/verify-email?token=");
    await verifyEmail(h.auth, { token: link.searchParams.get("token")! }, browserHeaders());
  }

  before(async () => {
    mail = await startMailbox();
    h = await createHarness({ mailer: mail.mailer });
    const owner = await newUser("owner");
    ownerCookies = owner.cookies;
    // An unverified user may create an organization and invite (only joining needs a verified address).
    const { data } = await createOrganization(
      h.auth,
      { name: "Validators", slug: "validators" },
      browserHeaders({ cookies: ownerCookies }),
    );
    orgId = data.id;
  });
  after(async () => {
    await h.close();
    await mail.close();
  });

  test("the invitee gets the accept link by mail; unverified and wrong accounts are refused; it works once", async () => {
    const { data: invitation } = await inviteMember(
      h.auth,
      { organizationId: orgId, email: "ivy@example.org", role: "admin" },
      browserHeaders({ cookies: ownerCookies }),
    );
    const message = await mail.waitFor("ivy@example.org", /invited to Validators/);
    assert.match(message.text, /owner@example\.org invited you to join Validators on RPC Pulse as admin/);
    const link = linkIn(message, "http://localhost:3000/invite/");
    assert.equal(link.pathname, `/invite/${invitation.id}`);

    const ivy = await newUser("ivy");
    await expectAppError(
      getInvitation(h.auth, { invitationId: invitation.id }, browserHeaders({ cookies: ivy.cookies })),
      "FORBIDDEN",
      "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
    );
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: invitation.id }, browserHeaders({ cookies: ivy.cookies })),
      "FORBIDDEN",
      "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
    );

    const mallory = await newUser("mallory");
    await verify(mallory.email);
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: invitation.id }, browserHeaders({ cookies: mallory.cookies })),
      "FORBIDDEN",
      "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
    );
    assert.equal(await h.db.prisma.member.count({ where: { organizationId: orgId, userId: mallory.id } }), 0);

    await verify(ivy.email);
    await acceptInvitation(h.auth, { invitationId: invitation.id }, browserHeaders({ cookies: ivy.cookies }));
    const member = await h.db.prisma.member.findFirstOrThrow({ where: { organizationId: orgId, userId: ivy.id } });
    assert.equal(member.role, "admin");

    assert.equal(await describeInvitationLink(h.auth, invitation.id), "accepted");
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: invitation.id }, browserHeaders({ cookies: ivy.cookies })),
      "NOT_FOUND",
    );
  });

  test("revoked and expired invitations are told apart from unknown ones", async () => {
    const headers = browserHeaders({ cookies: ownerCookies });
    const { data: revoked } = await inviteMember(
      h.auth,
      { organizationId: orgId, email: "rex@example.org", role: "viewer" },
      headers,
    );
    assert.equal(await describeInvitationLink(h.auth, revoked.id), "pending");
    await cancelInvitation(h.auth, { invitationId: revoked.id }, browserHeaders({ cookies: ownerCookies }));
    assert.equal(await describeInvitationLink(h.auth, revoked.id), "canceled");

    const { data: late } = await inviteMember(
      h.auth,
      { organizationId: orgId, email: "lea@example.org", role: "viewer" },
      browserHeaders({ cookies: ownerCookies }),
    );
    await h.db.prisma.invitation.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.equal(await describeInvitationLink(h.auth, late.id), "expired");
    const lea = await newUser("lea");
    await verify(lea.email);
    await expectAppError(
      acceptInvitation(h.auth, { invitationId: late.id }, browserHeaders({ cookies: lea.cookies })),
      "NOT_FOUND",
    );
    assert.equal(await describeInvitationLink(h.auth, "no-such-invitation"), "unknown");
    assert.equal(await describeInvitationLink(h.auth, "../../etc"), "unknown");
  });
});
