import type { ReactNode } from "react";
import { ClientFormattedTimes } from "@/components/display-prefs.js";
import "@/features/directory/directory.css";
import "@/features/status/status.css";

/** Public status pages: no sign-in, no app navigation; the page's own title leads. */
export default function StatusLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <ClientFormattedTimes />
      <main id="main" className="page sp-page">
        {children}
      </main>
      <footer className="sp-footer small muted">
        Powered by <a href="/">RPC Pulse</a>
      </footer>
    </>
  );
}
