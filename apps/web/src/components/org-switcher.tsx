"use client";
import { useRef } from "react";
import { switchOrganizationAction } from "@/features/orgs/actions.js";

export function OrgSwitcher({ orgs, current }: { orgs: { slug: string; name: string }[]; current?: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  return (
    <form ref={formRef} action={switchOrganizationAction} className="org-switcher">
      <label htmlFor="org-switch">Organization</label>
      <select
        id="org-switch"
        name="slug"
        defaultValue={current ?? ""}
        onChange={() => formRef.current?.requestSubmit()}
      >
        {current ? null : (
          <option value="" disabled>
            Choose…
          </option>
        )}
        {orgs.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name}
          </option>
        ))}
        <option value="__new">+ New organization</option>
      </select>
      <noscript>
        <button type="submit" className="small secondary">
          Go
        </button>
      </noscript>
    </form>
  );
}
