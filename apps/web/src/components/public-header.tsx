import Link from "next/link";
import { DisplayControls } from "./display-prefs.js";

export function PublicHeader() {
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden="true" />
        RPC Pulse
      </Link>
      <nav aria-label="Public">
        <Link href="/directory">Directory</Link>
      </nav>
      <span className="spacer" />
      <DisplayControls />
      <nav aria-label="Account">
        <Link href="/sign-in">Sign in</Link>
        <Link href="/sign-up">Create account</Link>
      </nav>
    </header>
  );
}
