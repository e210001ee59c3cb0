import type { DirectoryStatus } from "./view-model.js";

export const STATUS_TEXT: Record<DirectoryStatus, string> = {
  healthy: "Answering, and at the network head",
  degraded: "Recent failures or low availability in the window",
  lagging:
    "Answering, but behind the consensus head or with an old head (past the chain's limits): serves old data, never healthy",
  stale: "Answering, but its head stopped advancing: serves frozen data, never healthy",
  probation: "Too few probes yet, or recovering after being dead: listed after established endpoints",
  dead: "Consecutive failed probes: demoted to the bottom, kept in the list",
};

/** `compact` leaves out the explanatory title (long lists explain statuses once, in a legend). */
export function StatusMark({ status, compact }: { status: DirectoryStatus; compact?: boolean }) {
  return (
    <span className={`dir-status status-${status}`} title={compact ? undefined : STATUS_TEXT[status]}>
      {status}
    </span>
  );
}

export function VerifiedMark() {
  return (
    <span
      className="dir-verified"
      title="The organization named proved control of this endpoint (DNS TXT record or well-known file)"
    >
      operator verified
    </span>
  );
}

/** Yes / no / not checked, readable without colour. */
export function CapabilityMark({ value, label }: { value: boolean | null; label: string }) {
  if (value === null)
    return (
      <span className="cap cap-unknown" title={`${label}: not checked yet`}>
        ?<span className="sr-only"> {label} not checked</span>
      </span>
    );
  return (
    <span className={`cap ${value ? "cap-yes" : "cap-no"}`} title={`${label}: ${value ? "yes" : "no"}`}>
      <span aria-hidden="true">{value ? "✓" : "–"}</span>
      <span className="sr-only">{value ? "yes" : "no"}</span>
    </span>
  );
}
