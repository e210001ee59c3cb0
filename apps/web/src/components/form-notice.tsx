import type { FormState } from "@/server/form-state.js";

export function FormNotice({ state }: { state: FormState }) {
  if (state.status === "idle" || !state.message) return null;
  return (
    <div
      className={`notice ${state.status === "ok" ? "ok" : "error"}`}
      role={state.status === "ok" ? "status" : "alert"}
    >
      {state.message}
    </div>
  );
}
