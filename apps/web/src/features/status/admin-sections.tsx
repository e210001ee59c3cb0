import Link from "next/link";
import type { StatusPageTree } from "@rpcpulse/db/status";
import { Field } from "@/components/field.js";
import { ActionForm } from "./action-form.js";
import {
  createComponentAction,
  createGroupAction,
  deleteComponentAction,
  deleteGroupAction,
  updateComponentAction,
  updateGroupAction,
  updateStatusPageAction,
  setDomainAction,
  verifyDomainAction,
} from "./actions.js";
import { Time } from "@/components/time.js";

type Page = StatusPageTree;
type Ids = { orgSlug: string; pageId: string };

export function PageSettingsForm(props: { page: Page; ids: Ids }) {
  const { page } = props;
  return (
    <ActionForm action={updateStatusPageAction} hidden={props.ids} submit="Save page" testId="edit-status-page">
      <Field scope="page" name="title" label="Title" required maxLength={120} defaultValue={page.title} />
      <div className="field">
        <label htmlFor="f-edit-slug">Slug</label>
        <input id="f-edit-slug" name="slug" required maxLength={63} defaultValue={page.slug} />
      </div>
      <Field scope="page" name="description" label="Description" maxLength={1000} defaultValue={page.description} />
      <div className="sp-inline-form">
        <div className="field">
          <label htmlFor="f-accent">Accent colour</label>
          <input id="f-accent" name="accentColor" type="color" defaultValue={page.accentColor} />
        </div>
        <div className="field">
          <label htmlFor="f-theme">Theme</label>
          <select id="f-theme" name="theme" defaultValue={page.theme}>
            <option value="auto">Auto</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </div>
      </div>
      <label className="check">
        <input type="checkbox" name="isPublic" defaultChecked={page.isPublic} /> Public
      </label>
    </ActionForm>
  );
}

export function DomainSection(props: { page: Page; ids: Ids; canEdit: boolean }) {
  const { page } = props;
  return (
    <>
      {page.customDomain ? (
        <p>
          <span className="mono">{page.customDomain}</span>{" "}
          {page.domainVerifiedAt ? (
            <span className="badge ok">
              verified <Time at={page.domainVerifiedAt} />
            </span>
          ) : (
            <span className="badge">not verified</span>
          )}
        </p>
      ) : (
        <p className="muted">No custom domain. Point a CNAME at this server, then add it here.</p>
      )}
      {page.customDomain && !page.domainVerifiedAt && page.domainVerifyToken ? (
        <p className="small">
          Publish a TXT record <span className="mono">_rpcpulse-verify.{page.customDomain}</span> with the value{" "}
          <span className="mono">{page.domainVerifyToken}</span>, then verify. Until then the domain is not yours:
          another page that verifies it first serves it, and a later verification by another page takes it over.
        </p>
      ) : null}
      {props.canEdit ? (
        <div className="sp-inline-form">
          <ActionForm action={setDomainAction} hidden={props.ids} submit="Save domain" className="sp-inline-form">
            <Field
              scope="page"
              name="domain"
              label="Custom domain"
              maxLength={253}
              defaultValue={page.customDomain ?? ""}
              placeholder="status.example.org"
            />
          </ActionForm>
          {page.customDomain && !page.domainVerifiedAt ? (
            <ActionForm action={verifyDomainAction} hidden={props.ids} submit="Verify now" />
          ) : null}
        </div>
      ) : null}
    </>
  );
}

export function GroupsSection(props: { page: Page; ids: Ids; canEdit: boolean }) {
  const groups = props.page.groups;
  return (
    <>
      {groups.length === 0 ? <p className="muted">No groups: components show in one list.</p> : null}
      <ul>
        {groups.map((g, i) => (
          <li key={g.id} className="sp-inline-form" data-testid="admin-group">
            <span>
              {g.name} <span className="muted small">(order {g.position})</span>
            </span>
            {props.canEdit ? (
              <>
                {i > 0 ? <MoveGroupForm ids={props.ids} groupId={g.id} move="up" /> : null}
                {i < groups.length - 1 ? <MoveGroupForm ids={props.ids} groupId={g.id} move="down" /> : null}
                <details>
                  <summary>Rename</summary>
                  <ActionForm
                    action={updateGroupAction}
                    hidden={{ ...props.ids, groupId: g.id }}
                    submit="Save name"
                    className="sp-inline-form"
                  >
                    <Field
                      scope={`g-${g.id}`}
                      name="name"
                      label="New name"
                      required
                      maxLength={80}
                      defaultValue={g.name}
                    />
                  </ActionForm>
                </details>
                <ActionForm
                  action={deleteGroupAction}
                  hidden={{ ...props.ids, groupId: g.id }}
                  submit="Remove"
                  danger
                  className="sp-inline-form"
                />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {props.canEdit ? (
        <ActionForm action={createGroupAction} hidden={props.ids} submit="Add group" className="sp-inline-form">
          <Field
            scope="group-new"
            name="name"
            label="Group name"
            required
            maxLength={80}
            placeholder="Witness nodes"
            hint="New groups go last; move them up or down after."
          />
        </ActionForm>
      ) : null}
    </>
  );
}

function MoveGroupForm(props: { ids: Ids; groupId: string; move: "up" | "down" }) {
  return (
    <ActionForm
      action={updateGroupAction}
      hidden={{ ...props.ids, groupId: props.groupId, move: props.move }}
      submit={props.move === "up" ? "Move up" : "Move down"}
      className="sp-inline-form"
    />
  );
}

/** One group of the component picker, without what the page already lists. */
/** An optgroup of candidates; `optional` groups are left out when the organization has none. */
function CandidateGroup(props: {
  label: string;
  items: { ref: string; label: string }[];
  listed: Set<string>;
  optional?: boolean;
}) {
  if (props.optional && props.items.length === 0) return null;
  return (
    <optgroup label={props.label}>
      {props.items
        .filter((c) => !props.listed.has(c.ref))
        .map((c) => (
          <option key={c.ref} value={c.ref}>
            {c.label}
          </option>
        ))}
    </optgroup>
  );
}

export function ComponentsSection(props: {
  page: Page;
  ids: Ids;
  canEdit: boolean;
  candidates: {
    nodes: { ref: string; label: string }[];
    endpoints: { ref: string; label: string }[];
    producers: { ref: string; label: string }[];
    consensusClients: { ref: string; label: string }[];
  };
}) {
  const { page } = props;
  const refOf = (c: Page["components"][number]) =>
    c.kind === "node"
      ? `node:${c.nodeId}`
      : c.kind === "endpoint"
        ? `endpoint:${c.endpointId}`
        : c.kind === "consensus_client"
          ? `consensus_client:${c.beaconNodeId}`
          : `producer:${c.producerId}`;
  const listed = new Set(page.components.map(refOf));
  const producerLabels = new Map(props.candidates.producers.map((p) => [p.ref, p.label]));
  return (
    <>
      {page.components.length === 0 ? <p className="muted">No components yet.</p> : null}
      <ul className="sp-components">
        {page.components.map((c) => (
          <li key={c.id} className="sp-component" data-testid="admin-component">
            <div className="sp-row">
              <span className="sp-name">
                {c.displayName}{" "}
                <span className="muted small">
                  {c.kind === "producer"
                    ? `producer ${producerLabels.get(refOf(c)) ?? ""}`
                    : c.kind === "consensus_client"
                      ? `consensus client beside ${c.beaconNode?.name ?? ""} · ${c.beaconNode?.network.name ?? ""}`
                      : `${c.kind === "node" ? `node ${c.node?.name ?? ""}` : `endpoint ${c.endpoint?.name ?? ""}`} · ${
                          c.node?.network.name ?? c.endpoint?.network.name ?? ""
                        }`}
                </span>
              </span>
            </div>
            {props.canEdit ? (
              <div className="sp-inline-form">
                <ActionForm
                  action={updateComponentAction}
                  hidden={{ ...props.ids, componentId: c.id }}
                  submit="Save"
                  className="sp-inline-form"
                >
                  <Field
                    scope={`c-${c.id}`}
                    name="displayName"
                    label="Display name"
                    required
                    maxLength={120}
                    defaultValue={c.displayName}
                  />
                  <div className="field">
                    <label htmlFor={`g-${c.id}`}>Group</label>
                    <select id={`g-${c.id}`} name="groupId" defaultValue={c.groupId ?? ""}>
                      <option value="">(none)</option>
                      {page.groups.map((g) => (
                        <option key={g.id} value={g.id}>
                          {g.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <Field
                    scope={`c-${c.id}`}
                    name="position"
                    label="Order"
                    type="number"
                    defaultValue={String(c.position)}
                  />
                </ActionForm>
                <ActionForm
                  action={deleteComponentAction}
                  hidden={{ ...props.ids, componentId: c.id }}
                  submit="Remove"
                  danger
                  className="sp-inline-form"
                />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {props.canEdit ? (
        <ActionForm
          action={createComponentAction}
          hidden={props.ids}
          submit="Add component"
          className="sp-inline-form"
          testId="add-component"
        >
          <div className="field">
            <label htmlFor="f-ref">Node or endpoint (or producer, consensus client)</label>
            <select id="f-ref" name="ref" required defaultValue="">
              <option value="" disabled>
                Choose…
              </option>
              <CandidateGroup label="Your nodes" items={props.candidates.nodes} listed={listed} />
              <CandidateGroup
                label="Your consensus clients (beside Ethereum nodes)"
                items={props.candidates.consensusClients}
                listed={listed}
                optional
              />
              <CandidateGroup
                label="Your producers (witnesses, validators)"
                items={props.candidates.producers}
                listed={listed}
                optional
              />
              <CandidateGroup label="Public directory endpoints" items={props.candidates.endpoints} listed={listed} />
            </select>
          </div>
          <Field scope="c-new" name="displayName" label="Display name (optional)" maxLength={120} />
          <div className="field">
            <label htmlFor="f-group">Group</label>
            <select id="f-group" name="groupId" defaultValue="">
              <option value="">(none)</option>
              {page.groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <Field scope="c-new" name="position" label="Order" type="number" defaultValue="0" />
        </ActionForm>
      ) : null}
    </>
  );
}

export function IncidentLink(props: { orgSlug: string; pageId: string; incident: { id: string; title: string } }) {
  return (
    <Link href={`/app/o/${props.orgSlug}/status-pages/${props.pageId}/incidents/${props.incident.id}`}>
      {props.incident.title}
    </Link>
  );
}
