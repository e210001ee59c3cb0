"use client";
import { ErrorView } from "@/components/error-view.js";

/** An organization page that failed: retry in place, or back to the organization list. */
export default function OrgPageError(props: {
  error: Error & { digest?: string };
  reset: () => void;
  retry?: () => void;
}) {
  return (
    <main id="main" className="page">
      <ErrorView error={props.error} retry={props.retry ?? props.reset} home="/app" />
    </main>
  );
}
