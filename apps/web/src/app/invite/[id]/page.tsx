import type { ReactNode } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { getInvitation } from "@rpcpulse/auth";
import { isAppError } from "@rpcpulse/config";
import { PublicHeader } from "../../../components/public-header.js";
import { AcceptInvitationForm } from "../../../features/orgs/accept-invitation-form.js";
import { getRuntime } from "../../../server/runtime.js";
import { getCurrentSession, getRequestHeaders } from "../../../server/session.js";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await getCurrentSession();
  const here = `/invite/${encodeURIComponent(id)}`;
  let body: ReactNode;
  if (!session) {
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
      const { data } = await getInvitation(getRuntime().auth, { invitationId: id }, await getRequestHeaders());
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
      if (!isAppError(error)) throw error;
      const wrongUser = error.code === "FORBIDDEN";
      body = (
        <>
          <h1>Invitation unavailable</h1>
          <p className="lead">
            {wrongUser
              ? `This invitation was sent to another email address. You are signed in as ${session.email}.`
              : "This invitation does not exist, has expired, or was already used. Ask for a new one."}
          </p>
          <p>
            <Link href="/app">Go to the app</Link>
          </p>
        </>
      );
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
