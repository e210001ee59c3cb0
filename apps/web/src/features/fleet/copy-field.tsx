"use client";
import { useState } from "react";

/** A read-only value with a copy button (clipboard API; falls back to selecting the text). */
export function CopyField({
  id,
  label,
  value,
  multiline,
}: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      const el = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
      el?.select();
    }
  }
  return (
    <div className="copy-field">
      <label htmlFor={id} className="small muted">
        {label}
      </label>
      <div className="copy-row">
        {multiline ? (
          <textarea id={id} readOnly value={value} rows={5} data-testid={id} />
        ) : (
          <input id={id} type="text" readOnly value={value} data-testid={id} />
        )}
        <button type="button" className="secondary small" onClick={copy} aria-live="polite">
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
