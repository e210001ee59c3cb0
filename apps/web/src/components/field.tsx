import type { HTMLInputTypeAttribute, ReactNode } from "react";

/**
 * The element id of a field: `id` when given (the alerts page names its own: `rule-name`, `ch-name`),
 * else `<scope>-<name>` (the status-page admin shows many small forms on one page, so ids built from
 * the name alone would collide), else `f-<name>`.
 */
function fieldId(props: { id?: string; scope?: string; name: string }): string {
  return props.id ?? (props.scope ? `${props.scope}-${props.name}` : `f-${props.name}`);
}

/** The hint and error lines under a control, and the aria-describedby that points at them. */
function describe(id: string, hint: ReactNode, error: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  const lines = (
    <>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </>
  );
  return { describedBy: describedBy || undefined, lines };
}

/** The app's one labelled input: label, input, an optional hint and an optional error message. */
export function Field(props: {
  name: string;
  label: string;
  id?: string;
  scope?: string;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  minLength?: number;
  maxLength?: number;
  placeholder?: string;
  step?: string;
  min?: string;
}) {
  const id = fieldId(props);
  const { describedBy, lines } = describe(id, props.hint, props.error);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        step={props.step}
        min={props.min}
        autoComplete={props.autoComplete}
        required={props.required}
        defaultValue={props.defaultValue}
        minLength={props.minLength}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {lines}
    </div>
  );
}

/** A labelled select whose value the form keeps in state (the chosen type drives the other fields). */
export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: ReactNode;
}) {
  const { describedBy, lines } = describe(props.id, props.hint, undefined);
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={describedBy}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {lines}
    </div>
  );
}
