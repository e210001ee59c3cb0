"use client";
import { ErrorView } from "@/components/error-view.js";
import "./globals.css";
import "./theme-dark.css";

/**
 * The root layout itself failed (it reads cookies and headers): Next replaces the whole document,
 * so this renders its own <html>. The theme falls back to light; the error view still offers retry.
 */
export default function GlobalError(props: {
  error: Error & { digest?: string };
  reset: () => void;
  retry?: () => void;
}) {
  return (
    <html lang="en">
      <body>
        <main id="main" className="page">
          <ErrorView error={props.error} retry={props.retry ?? props.reset} />
        </main>
      </body>
    </html>
  );
}
