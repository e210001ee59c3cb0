/**
 * The alert state machine: pure, no I/O, so it is tested over whole series (flapping, recovery,
 * quorum, maintenance, re-notify). One call = one evaluation of one rule for one target.
 *
 *   ok ──condition──▶ pending ──held forMs──▶ degraded ──firing level held forMs──▶ firing
 *    ▲                   │ condition gone            │                                  │
 *    └───────────────────┘◀──── below resolveBelow for resolveForMs (hysteresis) ───────┘
 *
 * Firing never steps down to degraded (it resolves instead), so a value hovering around the
 * firing threshold cannot flap between tiers.
 */
import type { ResolvedThresholds } from "./rule-params.js";

export type AlertStatus = "ok" | "pending" | "degraded" | "firing";
export type AlertEventKind = "firing" | "degraded" | "resolved" | "renotify";

export interface EvaluatorRule extends ResolvedThresholds {
  forMs: number;
  resolveForMs: number;
  /** 0 = never re-notify. */
  renotifyMs: number;
  notifyResolved: boolean;
}

export interface AlertStateSnapshot {
  status: AlertStatus;
  since: Date;
  breachSince: Date | null;
  firingSince: Date | null;
  clearSince: Date | null;
  lastNotifiedAt: Date | null;
  dedupKey: string | null;
  /** A transition happened during maintenance and was not notified yet. */
  silenced: boolean;
  lastValue: number | null;
}

export interface AlertStepEvent {
  kind: AlertEventKind;
  from: AlertStatus;
  to: AlertStatus;
  /** Recorded in the history but not delivered (maintenance, or resolved without a notified start). */
  silenced: boolean;
  /** The episode key (rule, target, start) the event belongs to. */
  dedupKey: string;
}

export interface AlertStepResult {
  state: AlertStateSnapshot;
  event: AlertStepEvent | null;
}

export function initialAlertState(now: Date): AlertStateSnapshot {
  return {
    status: "ok",
    since: now,
    breachSince: null,
    firingSince: null,
    clearSince: null,
    lastNotifiedAt: null,
    dedupKey: null,
    silenced: false,
    lastValue: null,
  };
}

export type AlertLevel = "ok" | "degraded" | "firing";

export function levelOf(rule: ResolvedThresholds, value: number): AlertLevel {
  if (value >= rule.threshold) return "firing";
  if (rule.degraded !== null && value >= rule.degraded) return "degraded";
  return "ok";
}

const held = (since: Date | null, now: Date, ms: number): boolean =>
  since !== null && now.getTime() - since.getTime() >= ms;

/**
 * One evaluation. `value` null = no data this round (the state is kept as it is; node silence
 * has its own rule type). `keyPrefix` identifies (rule, target); the episode key adds its start.
 */
export function stepAlert(
  rule: EvaluatorRule,
  prev: AlertStateSnapshot,
  value: number | null,
  now: Date,
  ctx: { inMaintenance: boolean; keyPrefix: string },
): AlertStepResult {
  if (value === null) return { state: prev, event: null };
  const level = levelOf(rule, value);
  const base: AlertStateSnapshot = { ...prev, lastValue: value };

  if (prev.status === "ok" || prev.status === "pending") {
    if (level === "ok") {
      if (prev.status === "ok") return { state: { ...base, clearSince: null }, event: null };
      // The condition went away before its for-duration: a flap, nothing was notified.
      return {
        state: { ...initialAlertState(now), lastValue: value, lastNotifiedAt: prev.lastNotifiedAt },
        event: null,
      };
    }
    const breachSince = prev.breachSince ?? now;
    const dedupKey = prev.dedupKey ?? `${ctx.keyPrefix}:${breachSince.getTime()}`;
    const firingSince = level === "firing" ? (prev.firingSince ?? now) : null;
    const next: AlertStateSnapshot = {
      ...base,
      status: "pending",
      since: prev.status === "pending" ? prev.since : now,
      breachSince,
      firingSince,
      clearSince: null,
      dedupKey,
      silenced: false,
      lastNotifiedAt: null,
    };
    let to: AlertStatus | null = null;
    if (held(firingSince, now, rule.forMs)) to = "firing";
    else if (rule.degraded !== null && held(breachSince, now, rule.forMs)) to = "degraded";
    if (!to) return { state: next, event: null };
    return notify({ ...next, status: to, since: now }, to, prev.status, now, ctx.inMaintenance);
  }

  // degraded or firing
  const dedupKey = prev.dedupKey ?? `${ctx.keyPrefix}:${(prev.breachSince ?? prev.since).getTime()}`;
  if (value < rule.resolveBelow) {
    const clearSince = prev.clearSince ?? now;
    if (!held(clearSince, now, rule.resolveForMs)) {
      return { state: { ...base, clearSince, firingSince: null, dedupKey }, event: null };
    }
    const wasNotified = prev.lastNotifiedAt !== null;
    const resolved: AlertStateSnapshot = {
      ...initialAlertState(now),
      lastValue: value,
      lastNotifiedAt: wasNotified && rule.notifyResolved ? now : prev.lastNotifiedAt,
    };
    // Good news goes out even during maintenance, but only if the start of the episode was told.
    const silenced = !wasNotified || !rule.notifyResolved;
    return { state: resolved, event: { kind: "resolved", from: prev.status, to: "ok", silenced, dedupKey } };
  }

  const stayed: AlertStateSnapshot = { ...base, clearSince: null, dedupKey };
  if (prev.status === "degraded") {
    if (level === "firing") {
      const firingSince = prev.firingSince ?? now;
      if (held(firingSince, now, rule.forMs)) {
        return notify(
          { ...stayed, status: "firing", since: now, firingSince },
          "firing",
          "degraded",
          now,
          ctx.inMaintenance,
        );
      }
      stayed.firingSince = firingSince;
    } else stayed.firingSince = null;
  }
  // Catch up after maintenance: the transition was silenced, tell it now.
  if (prev.silenced && !ctx.inMaintenance) {
    const kind = prev.status === "firing" ? "firing" : "degraded";
    return notify(stayed, kind, prev.status, now, false);
  }
  if (rule.renotifyMs > 0 && prev.lastNotifiedAt && held(prev.lastNotifiedAt, now, rule.renotifyMs)) {
    return notify(stayed, "renotify", prev.status, now, ctx.inMaintenance);
  }
  return { state: stayed, event: null };
}

function notify(
  state: AlertStateSnapshot,
  kind: AlertEventKind,
  from: AlertStatus,
  now: Date,
  inMaintenance: boolean,
): AlertStepResult {
  const dedupKey = state.dedupKey ?? "";
  if (inMaintenance) {
    return { state: { ...state, silenced: true }, event: { kind, from, to: state.status, silenced: true, dedupKey } };
  }
  return {
    state: { ...state, silenced: false, lastNotifiedAt: now },
    event: { kind, from, to: state.status, silenced: false, dedupKey },
  };
}
