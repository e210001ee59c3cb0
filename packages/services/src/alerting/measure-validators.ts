/**
 * Validator readings → one number per (rule, validator), "higher is worse". Pure: the inputs are the
 * rows @rpcpulse/db reads (validator_latest, validator_offline_reports).
 */
import type { ValidatorOfflineReportRow, ValidatorStatusRow } from "@rpcpulse/db/producers";
import { MIN_ERA_PROGRESS } from "../producers/validator-view.js";
import type { Measurement } from "./measure.js";
import { FRESH_READING_MS } from "./measure-producers.js";
import type { AlertRuleType } from "./rule-params.js";

export function isValidatorRuleType(type: AlertRuleType): boolean {
  return type.startsWith("validator_");
}

export function measureValidator(
  type: AlertRuleType,
  validator: ValidatorStatusRow,
  offline: readonly ValidatorOfflineReportRow[],
  window: { minutes: number },
  now: Date,
): Measurement {
  const l = validator.latest;
  const fresh = l !== null && now.getTime() - l.observedAt.getTime() <= FRESH_READING_MS;
  switch (type) {
    case "validator_left_active_set": {
      if (!fresh) return { value: null };
      if (l.status === "active") return { value: 0 };
      const why = l.status === "waiting" ? "waiting, not elected" : "no validator preferences (chilled)";
      const left = l.leftSetAt ? `, left at era ${l.activeEra} (${l.leftSetAt.toISOString()})` : "";
      return { value: 1, detail: `${why}${left}` };
    }
    case "validator_low_era_points": {
      // Early in an era, or outside the set, points say nothing; the median of an idle set neither.
      if (!fresh || l.status !== "active" || l.eraProgress < MIN_ERA_PROGRESS || l.medianPoints <= 0) {
        return { value: null };
      }
      const shortfall = Math.max(0, 100 - (l.eraPoints / l.medianPoints) * 100);
      return {
        value: shortfall,
        detail: `${l.eraPoints} points against a median of ${Math.round(l.medianPoints)} in era ${l.activeEra} (${Math.round(l.eraProgress * 100)} % through)`,
      };
    }
    case "validator_offline_report": {
      if (l === null) return { value: null };
      const since = now.getTime() - window.minutes * 60_000;
      const inWindow = offline.filter((o) => o.producerId === validator.id && o.detectedAt.getTime() >= since);
      const newest = inWindow[0];
      if (!newest) return { value: 0 };
      return {
        value: inWindow.length,
        detail: `imOnline.SomeOffline in block #${newest.block} (era ${newest.era}), seen ${newest.detectedAt.toISOString()}`,
      };
    }
    default:
      return { value: null };
  }
}
