/** What every form action returns to its form (useActionState). Shared by server and client code. */
export interface FormState {
  status: "idle" | "ok" | "error";
  message?: string;
  fieldErrors?: Record<string, string>;
  /** Extra data for the form, e.g. an invitation link to show. */
  data?: Record<string, string>;
  /** Values to put back into the form after an error (never passwords). */
  values?: Record<string, string>;
}

export const IDLE: FormState = { status: "idle" };
