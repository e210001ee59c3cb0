"use client";
import { useEffect } from "react";

/**
 * One listener for every `button[data-copy]` on the page (a ranked table has up to thousands), so
 * the rows stay server-rendered HTML with no per-row hydration. Announces the result to screen readers.
 */
export function CopyButtons() {
  useEffect(() => {
    async function onClick(event: MouseEvent) {
      const target =
        event.target instanceof Element ? event.target.closest<HTMLButtonElement>("button[data-copy]") : null;
      if (!target) return;
      // An empty data-copy copies the text of the element just before the button (the URL next to it).
      const value = target.dataset.copy || target.previousElementSibling?.textContent || "";
      let done = false;
      try {
        await navigator.clipboard.writeText(value);
        done = true;
      } catch {
        done = false;
      }
      const before = target.textContent;
      target.textContent = done ? "Copied" : "Copy failed";
      const live = document.getElementById("copy-status");
      if (live) live.textContent = done ? `Copied ${value}` : "Copy failed: select the text instead";
      setTimeout(() => {
        target.textContent = before;
      }, 1500);
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  return <p id="copy-status" className="sr-only" aria-live="polite" />;
}
