"use client";
import { useActionState, useState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { saveRuleAction } from "./actions.js";
import { Field, SelectField } from "@/components/field.js";

export interface RuleTypeOption {
  value: string;
  label: string;
  unit: string;
  targets: "node" | "endpoint" | "both" | "producer";
  threshold: number;
  degraded: number | null;
  windowMinutes: number;
  help: string;
}

export interface RuleFormValues {
  ruleId?: string;
  name: string;
  type: string;
  target: string;
  threshold: string;
  degraded: string;
  resolveBelow: string;
  windowMinutes: string;
  forSeconds: string;
  resolveForSeconds: string;
  renotifyMinutes: string;
  notifyResolved: boolean;
  openIncidents: boolean;
  enabled: boolean;
  channelIds: string[];
}

function NumberField(props: { name: string; label: string; value: string; hint?: string; error?: string | undefined }) {
  return (
    <Field
      id={`rule-${props.name}`}
      name={props.name}
      label={props.label}
      type="number"
      step="any"
      min="0"
      defaultValue={props.value}
      hint={props.hint}
      error={props.error}
    />
  );
}

/** Create or edit a rule. Threshold defaults and units follow the chosen type. */
export function RuleForm(props: {
  slug: string;
  types: RuleTypeOption[];
  nodes: Array<{ id: string; name: string }>;
  endpoints: Array<{ id: string; name: string; url: string }>;
  channels: Array<{ id: string; name: string; type: string }>;
  initial: RuleFormValues;
}) {
  const [state, action] = useActionState(saveRuleAction, IDLE);
  const [type, setType] = useState(props.initial.type);
  const info = props.types.find((t) => t.value === type) ?? props.types[0];
  const v = state.values ?? {};
  const err = state.fieldErrors ?? {};
  const editing = Boolean(props.initial.ruleId);
  // A new type resets the threshold fields to its defaults (keyed inputs remount).
  const keyed = editing && type === props.initial.type ? "initial" : type;
  const pick = (name: keyof RuleFormValues, fallback: string) => (v[name] as string | undefined) ?? fallback;
  return (
    <form action={action} className="rule-form" noValidate data-testid="rule-form">
      <input type="hidden" name="slug" value={props.slug} />
      {props.initial.ruleId ? <input type="hidden" name="ruleId" value={props.initial.ruleId} /> : null}
      <div className="form-grid">
        <Field
          id="rule-name"
          name="name"
          label="Name"
          defaultValue={pick("name", props.initial.name)}
          maxLength={100}
          error={err.name}
        />
        <SelectField
          id="rule-type"
          name="type"
          label="Type"
          value={type}
          onChange={setType}
          options={props.types}
          hint={info?.help}
        />
        <div className="field">
          <label htmlFor="rule-target">Target</label>
          <select
            id="rule-target"
            name="target"
            defaultValue={pick("target", props.initial.target)}
            aria-invalid={err.target ? true : undefined}
          >
            {info?.targets === "producer" ? <option value="org">Every witness of the organization</option> : null}
            {info?.targets !== "endpoint" && info?.targets !== "producer" ? (
              <optgroup label="Nodes">
                <option value="org">Every node of the organization</option>
                {props.nodes.map((n) => (
                  <option key={n.id} value={`node:${n.id}`}>
                    {n.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {info?.targets !== "node" && info?.targets !== "producer" ? (
              <optgroup label="Public endpoints">
                {props.endpoints.map((e) => (
                  <option key={e.id} value={`endpoint:${e.id}`}>
                    {e.name} ({e.url})
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          {err.target ? <span className="error">{err.target}</span> : null}
        </div>
      </div>
      <div className="form-grid four" key={keyed}>
        <NumberField
          name="threshold"
          label={`Fire at (${info?.unit})`}
          value={pick("threshold", keyed === "initial" ? props.initial.threshold : String(info?.threshold ?? ""))}
          error={err.threshold}
        />
        <NumberField
          name="degraded"
          label={`Degraded from (${info?.unit})`}
          value={pick(
            "degraded",
            keyed === "initial" ? props.initial.degraded : info?.degraded === null ? "" : String(info?.degraded ?? ""),
          )}
          hint="Empty: no degraded tier."
          error={err.degraded}
        />
        <NumberField
          name="resolveBelow"
          label={`Resolve below (${info?.unit})`}
          value={pick("resolveBelow", keyed === "initial" ? props.initial.resolveBelow : "")}
          hint="Hysteresis. Default: the degraded tier, else the threshold."
          error={err.resolveBelow}
        />
        {info && info.windowMinutes > 0 ? (
          <NumberField
            name="windowMinutes"
            label="Window (min)"
            value={pick(
              "windowMinutes",
              keyed === "initial" ? props.initial.windowMinutes : String(info?.windowMinutes ?? 0),
            )}
            hint="Probes and latency are judged over this window."
            error={err.windowMinutes}
          />
        ) : (
          <input type="hidden" name="windowMinutes" value="0" />
        )}
      </div>
      <div className="form-grid">
        <NumberField
          name="forSeconds"
          label="Fire after (s)"
          value={pick("forSeconds", props.initial.forSeconds)}
          hint="The condition must hold this long."
          error={err.forSeconds}
        />
        <NumberField
          name="resolveForSeconds"
          label="Resolve after (s)"
          value={pick("resolveForSeconds", props.initial.resolveForSeconds)}
          error={err.resolveForSeconds}
        />
        <NumberField
          name="renotifyMinutes"
          label="Re-notify every (min)"
          value={pick("renotifyMinutes", props.initial.renotifyMinutes)}
          hint="0: never."
          error={err.renotifyMinutes}
        />
      </div>
      <fieldset className="checks">
        <legend>Notify</legend>
        {props.channels.length === 0 ? <span className="muted small">No channels yet: add one below.</span> : null}
        {props.channels.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              name="channelIds"
              value={c.id}
              defaultChecked={props.initial.channelIds.includes(c.id)}
            />{" "}
            {c.name} <span className="muted small">({c.type})</span>
          </label>
        ))}
        {err.channelIds ? <span className="error">{err.channelIds}</span> : null}
      </fieldset>
      <fieldset className="checks">
        <legend>Options</legend>
        <label>
          <input type="checkbox" name="notifyResolved" defaultChecked={props.initial.notifyResolved} /> Send a resolved
          notification
        </label>
        <label>
          <input type="checkbox" name="openIncidents" defaultChecked={props.initial.openIncidents} /> Open incidents on
          status pages that list the target
        </label>
        <label>
          <input type="checkbox" name="enabled" defaultChecked={props.initial.enabled} /> Enabled
        </label>
      </fieldset>
      <div>
        <SubmitButton pendingText="Saving…">{editing ? "Save rule" : "Create rule"}</SubmitButton>
      </div>
      <FormNotice state={state} />
    </form>
  );
}
