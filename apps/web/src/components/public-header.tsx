import Link from "next/link";

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
      <nav aria-label="Account">
        <Link href="/sign-in">Sign in</Link>
        <Link href="/sign-up">Create account</Link>
      </nav>
    </header>
  );
}
