"use client";
import { useState } from "react";

/** Copies `value` to the clipboard; says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" className="secondary small" onClick={copy} aria-label={label} aria-live="polite">
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
