"use client";
import { useEffect } from "react";

/**
 * Pages render the session read-only; this one same-origin GET lets better-auth slide the session
 * (and its cookie) forward once a day while the user keeps coming back.
 */
export function SessionKeepalive() {
  useEffect(() => {
    void fetch("/api/auth/get-session", { credentials: "same-origin", cache: "no-store" }).catch(() => undefined);
  }, []);
  return null;
}
