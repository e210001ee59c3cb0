import type { PublicIncident, PublicMaintenance } from "@rpcpulse/services/status";
import { titleCase } from "./format.js";
import { LocalTime } from "@/components/display-prefs.js";

/** Incidents with their updates. Update HTML was rendered by our escape-first markdown renderer. */
export function IncidentList(props: { incidents: PublicIncident[]; names: Map<string, string>; emptyText: string }) {
  if (props.incidents.length === 0) return <p className="muted">{props.emptyText}</p>;
  return (
    <ol className="sp-incidents">
      {props.incidents.map((i) => (
        <li
          key={i.id}
          id={`incident-${i.id}`}
          className={`sp-incident impact-${i.impact}${i.resolvedAt ? " resolved" : ""}`}
        >
          <h3>
            {i.title} <span className={`sp-pill st-${i.status}`}>{titleCase(i.status)}</span>
            {i.auto ? <span className="sp-pill auto">automatic</span> : null}
          </h3>
          <p className="small muted">
            <LocalTime at={i.startedAt.toISOString()} />
            {i.resolvedAt ? (
              <>
                {" – "}
                <LocalTime at={i.resolvedAt.toISOString()} />
              </>
            ) : (
              " · ongoing"
            )}
            {i.componentIds.length > 0
              ? ` · ${i.componentIds
                  .map((id) => props.names.get(id))
                  .filter(Boolean)
                  .join(", ")}`
              : null}
          </p>
          <ul className="sp-updates">
            {i.updates.map((u) => (
              <li key={u.id}>
                <strong>{titleCase(u.status)}</strong>{" "}
                <time className="small muted" dateTime={u.createdAt.toISOString()}>
                  <LocalTime at={u.createdAt.toISOString()} />
                </time>
                <div className="sp-md" dangerouslySetInnerHTML={{ __html: u.html }} />
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

export function MaintenanceList(props: { windows: PublicMaintenance[]; names: Map<string, string> }) {
  return (
    <ul className="sp-maintenance">
      {props.windows.map((m) => (
        <li key={m.id} id={`maintenance-${m.id}`} className={m.active ? "active" : ""}>
          <h3>
            {m.title} <span className="sp-pill st-maintenance">{m.active ? "In progress" : "Scheduled"}</span>
          </h3>
          <p className="small muted">
            <LocalTime at={m.startsAt.toISOString()} /> – <LocalTime at={m.endsAt.toISOString()} />
            {m.componentIds.length > 0
              ? ` · ${m.componentIds
                  .map((id) => props.names.get(id))
                  .filter(Boolean)
                  .join(", ")}`
              : null}
          </p>
          {m.html ? <div className="sp-md" dangerouslySetInnerHTML={{ __html: m.html }} /> : null}
        </li>
      ))}
    </ul>
  );
}
