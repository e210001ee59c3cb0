import type { ReactNode } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { describeInvitationLink, getInvitation, type InvitationLinkState } from "@rpcpulse/auth";
import { isAppError } from "@rpcpulse/config";
import { PublicHeader } from "@/components/public-header.js";
import { ResendVerificationForm } from "@/features/orgs/accounts/recovery-forms.js";
import { AcceptInvitationForm } from "@/features/orgs/accept-invitation-form.js";
import { getRuntime } from "@/server/runtime.js";
import { getCurrentSession, getRequestHeaders } from "@/server/session.js";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

const UNAVAILABLE: Record<Exclude<InvitationLinkState, "pending">, { title: string; text: string }> = {
  expired: { title: "This invitation has expired", text: "Invitations are valid for 7 days. Ask for a new one." },
  canceled: { title: "This invitation was revoked", text: "An administrator cancelled it. Ask for a new one." },
  accepted: {
    title: "This invitation was already used",
    text: "Each invitation link works once. If it was you, the organization is in your list.",
  },
  rejected: { title: "This invitation was declined", text: "Ask for a new one if you changed your mind." },
  unknown: { title: "Invitation not found", text: "Check the link, or ask for a new invitation." },
};

function Unavailable({ state }: { state: Exclude<InvitationLinkState, "pending"> }) {
  const { title, text } = UNAVAILABLE[state];
  return (
    <>
      <h1>{title}</h1>
      <p className="lead">{text}</p>
      <p>
        <Link href="/app">Go to the app</Link>
      </p>
    </>
  );
}

function reasonOf(error: unknown): string | undefined {
  return isAppError(error) ? (error.details as { reason?: string } | undefined)?.reason : undefined;
}

export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { auth } = getRuntime();
  const [state, session] = await Promise.all([describeInvitationLink(auth, id), getCurrentSession()]);
  const here = `/invite/${encodeURIComponent(id)}`;
  let body: ReactNode;
  if (state !== "pending") {
    body = <Unavailable state={state} />;
  } else if (!session) {
    body = (
      <>
        <h1>You are invited</h1>
        <p className="lead">Sign in, or create an account with the email address the invitation was sent to.</p>
        <div>
          <p>
            <Link className="button" href={`/sign-up?next=${encodeURIComponent(here)}`}>
              Create account
            </Link>{" "}
            <Link className="button secondary" href={`/sign-in?next=${encodeURIComponent(here)}`}>
              Sign in
            </Link>
          </p>
        </div>
      </>
    );
  } else {
    try {
      const { data } = await getInvitation(auth, { invitationId: id }, await getRequestHeaders());
      body = (
        <>
          <h1>Join {data.organizationName}</h1>
          <p className="lead">
            {data.inviterEmail} invited <strong>{data.email}</strong> as{" "}
            <span className={`badge ${data.role}`}>{data.role}</span>.
          </p>
          <AcceptInvitationForm invitationId={data.id} />
        </>
      );
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION") {
        body = (
          <>
            <h1>Confirm your email address first</h1>
            <p className="lead">
              Before you join, confirm that <strong>{session.email}</strong> is yours: open the link we emailed you,
              then come back to this page.
            </p>
            <ResendVerificationForm next={here} label="Email me a new link" />
          </>
        );
      } else if (reason === "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION") {
        body = (
          <>
            <h1>This invitation is for another address</h1>
            <p className="lead">
              You are signed in as {session.email}. Sign out, then sign in (or create an account) with the address the
              invitation was sent to.
            </p>
            <p>
              <Link href="/sign-out">Sign out</Link>
            </p>
          </>
        );
      } else if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "VALIDATION")) {
        body = (
          <Unavailable state={await describeInvitationLink(auth, id).then((s) => (s === "pending" ? "unknown" : s))} />
        );
      } else {
        throw error;
      }
    }
  }
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">{body}</div>
      </main>
    </>
  );
}
