"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-render the server page every `seconds` while the tab is visible (keeps the URL's filters). */
export function AutoRefresh({ seconds }: { seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return null;
}
