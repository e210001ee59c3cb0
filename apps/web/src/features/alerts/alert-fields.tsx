import type { HTMLInputTypeAttribute, ReactNode } from "react";

/**
 * The labelled input of the rule and channel forms. Unlike components/field.tsx the element id is
 * given (`rule-name`, `ch-name`): both forms sit on the alerts page and share field names, so ids
 * built from the name alone would collide and break the label of one of them.
 */
export function InputField(props: {
  id: string;
  name: string;
  label: string;
  type?: HTMLInputTypeAttribute;
  defaultValue?: string | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  maxLength?: number;
  placeholder?: string;
  autoComplete?: string;
  step?: string;
  min?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? "text"}
        step={props.step}
        min={props.min}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
      />
      {props.hint ? <span className="hint">{props.hint}</span> : null}
      {props.error ? <span className="error">{props.error}</span> : null}
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
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.hint ? <span className="hint">{props.hint}</span> : null}
    </div>
  );
}
