import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { DisplayPrefsProvider } from "@/components/display-prefs.js";
import { HEAD_SCRIPT } from "@/lib/display-prefs.js";
import { getDisplayPrefs } from "@/server/display-prefs.js";
import "./globals.css";
import "./theme-dark.css";

export const metadata: Metadata = {
  title: { default: "RPC Pulse", template: "%s · RPC Pulse" },
  description: "Monitoring for blockchain RPC nodes.",
};

/**
 * The theme is a data-theme attribute on <html>: set from the cookie when the viewer chose one, and
 * by the head script (before first paint) when following the system setting, so no page flashes
 * the wrong theme. The script carries the request's CSP nonce.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [prefs, nonce] = await Promise.all([getDisplayPrefs(), headers().then((h) => h.get("x-nonce") ?? undefined)]);
  const explicit = prefs.theme === "system" ? undefined : prefs.theme;
  return (
    <html lang="en" data-theme={explicit} data-theme-pref={prefs.theme} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <DisplayPrefsProvider initial={prefs}>{children}</DisplayPrefsProvider>
      </body>
    </html>
  );
}
