import type { ReactNode } from "react";
import "@/features/orgs/accounts/accounts.css";
import { VerifyEmailBanner } from "@/features/orgs/accounts/verify-email-banner.js";
import { getRuntime } from "@/server/runtime.js";
import { getCurrentSession } from "@/server/session.js";

/** Every signed-in page: a banner while the account's address is unconfirmed (and mail can confirm it). */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = getRuntime().mailer ? await getCurrentSession() : null;
  return (
    <>
      {session && !session.emailVerified ? <VerifyEmailBanner email={session.email} /> : null}
      {children}
    </>
  );
}
