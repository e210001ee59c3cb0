import type { HTMLInputTypeAttribute } from "react";

/**
 * A labelled input like components/field.tsx, with the element id scoped by `scope`: the
 * status-page admin shows many small forms on one page (page, groups, every component, incidents,
 * maintenance), and ids built from the field name alone would collide.
 */
export function StatusField(props: {
  scope: string;
  name: string;
  label: string;
  type?: HTMLInputTypeAttribute;
  required?: boolean;
  defaultValue?: string;
  hint?: string;
  maxLength?: number;
  placeholder?: string;
}) {
  const id = `${props.scope}-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        required={props.required}
        defaultValue={props.defaultValue}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint ? (
        <span className="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}
