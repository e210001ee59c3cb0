"use client";
import Link from "next/link";
import { useEffect } from "react";

/**
 * What a route shows when rendering it failed: a plain message, the error's digest (it matches the
 * server log line, so support can find it), and a retry that renders the segment again from the
 * server. Server errors reach the browser without their message in production; we never show stacks.
 */
export function ErrorView(props: { error: Error & { digest?: string }; retry: () => void; home?: string }) {
  useEffect(() => {
    console.error(props.error);
  }, [props.error]);
  return (
    <div className="error-view card" role="alert" data-testid="error-view">
      <h1>Something went wrong</h1>
      <p className="muted">
        This page could not be shown just now. It may be a passing problem with the database or the network; trying
        again usually helps.
      </p>
      {props.error.digest ? (
        <p className="small muted">
          Reference: <code>{props.error.digest}</code>
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => props.retry()} data-testid="error-retry">
          Try again
        </button>
        <Link className="button secondary" href={props.home ?? "/"}>
          Go to the start page
        </Link>
      </div>
    </div>
  );
}
