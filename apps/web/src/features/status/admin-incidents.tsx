import type { IncidentView, MaintenanceRow, StatusPageTree } from "@rpcpulse/db/status";
import { ACTIONS_COLUMN, DataTable, labelColumns } from "@/components/data-table.js";
import { Field } from "@/components/field.js";
import { ActionForm } from "./action-form.js";
import {
  cancelMaintenanceAction,
  createIncidentAction,
  updateMaintenanceAction,
  deleteSubscriberAction,
  scheduleMaintenanceAction,
} from "./actions.js";
import { IncidentLink } from "./admin-sections.js";
import { titleCase } from "./format.js";
import { Time } from "@/components/time.js";
import { utcToZonedInput } from "@/lib/format.js";
import { getDisplayZone } from "@/server/display-prefs.js";

type Ids = { orgSlug: string; pageId: string };

function ComponentChecks(props: { page: StatusPageTree; prefix: string; checked?: readonly string[] }) {
  return (
    <fieldset className="sp-checks">
      <legend className="small">Affected components</legend>
      {props.page.components.map((c) => (
        <label key={c.id} className="check small">
          <input
            type="checkbox"
            name="componentIds"
            value={c.id}
            id={`${props.prefix}-${c.id}`}
            defaultChecked={props.checked?.includes(c.id)}
          />{" "}
          {c.displayName}
        </label>
      ))}
    </fieldset>
  );
}

/** Every IANA zone this runtime knows, UTC first (the maintenance form's zone select). */
function zoneOptions(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", current, ...all])];
}

/**
 * Title, times, message and components of a maintenance window; empty for a new one. The times are
 * wall-clock times in the zone picked beside them (the viewer's display zone by default); the action
 * turns them into UTC instants (lib/format.ts zonedInputToUtc), which is what is stored.
 */
async function MaintenanceFields(props: { page: StatusPageTree; scope: string; window?: MaintenanceRow }) {
  const m = props.window;
  const zone = await getDisplayZone();
  const zoneId = `${props.scope}-timeZone`;
  return (
    <>
      <Field scope={props.scope} name="title" label="Title" required maxLength={200} defaultValue={m?.title} />
      <div className="sp-inline-form">
        {(["startsAt", "endsAt"] as const).map((name) => (
          <Field
            key={name}
            scope={props.scope}
            name={name}
            label={name === "startsAt" ? "Starts" : "Ends"}
            type="datetime-local"
            required
            defaultValue={m ? utcToZonedInput(m[name], zone) : undefined}
          />
        ))}
        <div className="field">
          <label htmlFor={zoneId}>Time zone</label>
          <select id={zoneId} name="timeZone" defaultValue={zone} data-testid="maintenance-zone">
            {zoneOptions(zone).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`f-${props.scope}-body`}>Details (Markdown)</label>
        <textarea id={`f-${props.scope}-body`} name="body" maxLength={10000} rows={3} defaultValue={m?.body} />
      </div>
      <ComponentChecks page={props.page} prefix={props.scope} checked={m?.componentIds} />
    </>
  );
}

export function IncidentsSection(props: {
  page: StatusPageTree;
  ids: Ids;
  incidents: IncidentView[];
  canEdit: boolean;
}) {
  const own = new Set(props.page.components.map((c) => c.id));
  const names = new Map(props.page.components.map((c) => [c.id, c.displayName]));
  return (
    <>
      {props.incidents.length === 0 ? <p className="muted">No incidents.</p> : null}
      <DataTable columns={labelColumns(["Incident", "Status", "Components", "Started"])}>
        {props.incidents.map((i) => (
          <tr key={i.id} data-testid="admin-incident">
            <td>
              <IncidentLink orgSlug={props.ids.orgSlug} pageId={props.ids.pageId} incident={i} />
              {i.auto ? <span className="sp-pill auto"> automatic</span> : null}
            </td>
            <td>
              <span className={`sp-pill st-${i.status}`}>{titleCase(i.status)}</span>
            </td>
            <td className="small">
              {i.components
                .map((l) => l.componentId)
                .filter((id) => own.has(id))
                .map((id) => names.get(id))
                .join(", ") || "whole page"}
            </td>
            <td className="small">
              <Time at={i.startedAt} />
            </td>
          </tr>
        ))}
      </DataTable>
      {props.canEdit ? (
        <details className="after-table">
          <summary>Declare an incident</summary>
          <ActionForm
            action={createIncidentAction}
            hidden={props.ids}
            submit="Publish incident"
            testId="create-incident"
          >
            <Field scope="inc-new" name="title" label="Title" required maxLength={200} />
            <div className="sp-inline-form">
              <div className="field">
                <label htmlFor="f-inc-status">Status</label>
                <select id="f-inc-status" name="status" defaultValue="investigating">
                  {["investigating", "identified", "monitoring", "resolved"].map((s) => (
                    <option key={s} value={s}>
                      {titleCase(s)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="f-inc-impact">Impact</label>
                <select id="f-inc-impact" name="impact" defaultValue="minor">
                  {["none", "minor", "major", "critical"].map((s) => (
                    <option key={s} value={s}>
                      {titleCase(s)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="field">
              <label htmlFor="f-inc-body">Message (Markdown)</label>
              <textarea id="f-inc-body" name="body" required maxLength={10000} rows={4} />
            </div>
            <ComponentChecks page={props.page} prefix="inc" />
          </ActionForm>
        </details>
      ) : null}
    </>
  );
}

export function MaintenanceSection(props: {
  page: StatusPageTree;
  ids: Ids;
  windows: MaintenanceRow[];
  canEdit: boolean;
}) {
  const names = new Map(props.page.components.map((c) => [c.id, c.displayName]));
  return (
    <>
      {props.windows.length === 0 ? <p className="muted">Nothing scheduled.</p> : null}
      <ul>
        {props.windows.map((m) => (
          <li key={m.id} className="sp-inline-form" data-testid="admin-maintenance">
            <span>
              <strong>{m.title}</strong>{" "}
              <span className="small muted">
                <Time at={m.startsAt} /> – <Time at={m.endsAt} /> ·{" "}
                {m.componentIds.map((id) => names.get(id)).join(", ")}
              </span>
            </span>
            {props.canEdit ? (
              <>
                <details>
                  <summary>Edit</summary>
                  <ActionForm
                    action={updateMaintenanceAction}
                    hidden={{ ...props.ids, windowId: m.id }}
                    submit="Save maintenance"
                  >
                    <MaintenanceFields page={props.page} scope={`mw-${m.id}`} window={m} />
                  </ActionForm>
                </details>
                <ActionForm
                  action={cancelMaintenanceAction}
                  hidden={{ ...props.ids, windowId: m.id }}
                  submit="Cancel"
                  danger
                  className="sp-inline-form"
                />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {props.canEdit ? (
        <details>
          <summary>Schedule maintenance</summary>
          <ActionForm
            action={scheduleMaintenanceAction}
            hidden={props.ids}
            submit="Schedule"
            testId="schedule-maintenance"
          >
            <MaintenanceFields page={props.page} scope="mw-new" />
          </ActionForm>
        </details>
      ) : null}
    </>
  );
}

export function SubscribersSection(props: {
  ids: Ids;
  subscribers: { id: string; kind: string; target: string; confirmedAt: Date | null; createdAt: Date }[];
  canEdit: boolean;
}) {
  if (props.subscribers.length === 0) return <p className="muted">No subscribers yet.</p>;
  return (
    <DataTable
      columns={[...labelColumns(["Subscriber", "Kind", "Confirmed"]), ...(props.canEdit ? [ACTIONS_COLUMN] : [])]}
    >
      {props.subscribers.map((s) => (
        <tr key={s.id}>
          <td className="mono small">{s.target}</td>
          <td>{s.kind}</td>
          <td className="small">{s.confirmedAt ? <Time at={s.confirmedAt} /> : "pending"}</td>
          {props.canEdit ? (
            <td className="actions">
              <ActionForm
                action={deleteSubscriberAction}
                hidden={{ ...props.ids, subscriberId: s.id }}
                submit="Remove"
                danger
                className="sp-inline-form"
              />
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}
