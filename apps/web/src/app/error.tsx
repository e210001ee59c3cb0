"use client";
import { ErrorView } from "@/components/error-view.js";

/** Any route segment that throws while rendering (inside the root layout, so theme and zone stay). */
export default function RouteError(props: {
  error: Error & { digest?: string };
  reset: () => void;
  retry?: () => void;
}) {
  return (
    <main id="main" className="page">
      <ErrorView error={props.error} retry={props.retry ?? props.reset} />
    </main>
  );
}
