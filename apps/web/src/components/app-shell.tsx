import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction } from "@/features/orgs/accounts/actions.js";
import { DisplayControls } from "./display-prefs.js";
import { OrgSwitcher } from "./org-switcher.js";
import { SessionKeepalive } from "./session-keepalive.js";

export function AppShell(props: {
  user: { name: string; email: string };
  orgs: { slug: string; name: string }[];
  currentSlug?: string;
  active?: "fleet" | "advisor" | "alerts" | "status" | "endpoints" | "settings" | "account";
  children: ReactNode;
}) {
  const { currentSlug, active } = props;
  return (
    <>
      <header className="topbar">
        <Link href="/app" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          RPC Pulse
        </Link>
        {props.orgs.length > 0 ? <OrgSwitcher orgs={props.orgs} current={currentSlug} /> : null}
        {currentSlug ? (
          <nav aria-label="Organization sections">
            <Link href={`/app/o/${currentSlug}`} aria-current={active === "fleet" ? "page" : undefined}>
              Fleet
            </Link>
            <Link href={`/app/o/${currentSlug}/advisor`} aria-current={active === "advisor" ? "page" : undefined}>
              Advisor
            </Link>
            <Link href={`/app/o/${currentSlug}/alerts`} aria-current={active === "alerts" ? "page" : undefined}>
              Alerts
            </Link>
            <Link href={`/app/o/${currentSlug}/status-pages`} aria-current={active === "status" ? "page" : undefined}>
              Status pages
            </Link>
            <Link href={`/app/o/${currentSlug}/endpoints`} aria-current={active === "endpoints" ? "page" : undefined}>
              Endpoints
            </Link>
            <Link href={`/app/o/${currentSlug}/settings`} aria-current={active === "settings" ? "page" : undefined}>
              Settings
            </Link>
          </nav>
        ) : null}
        <span className="spacer" />
        <DisplayControls />
        <div className="user">
          <Link href="/app/account" aria-current={active === "account" ? "page" : undefined} title={props.user.email}>
            {props.user.name}
          </Link>
          <form action={signOutAction}>
            <button type="submit" className="small">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <SessionKeepalive />
      <main id="main" className="page">
        {props.children}
      </main>
    </>
  );
}
