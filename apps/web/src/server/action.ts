import "server-only";
import { isAppError, type AppError } from "@rpcpulse/config";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import type { FormState } from "./form-state.js";
import { getRuntime } from "./runtime.js";

export type { FormState } from "./form-state.js";

export function formValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string" && !key.startsWith("$ACTION")) out[key] = value;
  }
  return out;
}

const CHECK_FIELDS = "Please check the highlighted fields.";

export interface FormActionOptions {
  /**
   * AppErrors that name a field (`details.field`) are shown next to that field. The form's message is
   * then the error's own ("own") or the general "Please check the highlighted fields." ("check").
   * Without this option such errors are a form message only.
   */
  fieldErrors?: "own" | "check";
  /** Given back with every answer but "ok", so the form keeps what was typed (never passwords). */
  values?: Record<string, string>;
}

/**
 * The one adapter for server actions: maps zod errors to field messages and AppError to a
 * message, once. Next's redirect()/notFound() pass through untouched.
 */
export async function runFormAction(fn: () => Promise<FormState>, options: FormActionOptions = {}): Promise<FormState> {
  const result = await settle(fn, options.fieldErrors);
  return result.status === "ok" || !options.values ? result : { ...result, values: options.values };
}

async function settle(fn: () => Promise<FormState>, fieldErrors: FormActionOptions["fieldErrors"]): Promise<FormState> {
  try {
    return await fn();
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof z.ZodError) {
      const fields: Record<string, string> = {};
      for (const issue of error.issues) {
        const key = String(issue.path[0] ?? "form");
        fields[key] ??= issue.message;
      }
      return { status: "error", message: CHECK_FIELDS, fieldErrors: fields };
    }
    const field = fieldErrors && isAppError(error) ? error.details?.field : undefined;
    if (isAppError(error) && typeof field === "string") {
      const message = fieldErrors === "own" ? error.message : CHECK_FIELDS;
      return { status: "error", message, fieldErrors: { [field]: error.message } };
    }
    if (isAppError(error)) return { status: "error", message: messageFor(error) };
    getRuntime().logger.error({ err: error instanceof Error ? error.stack : String(error) }, "action failed");
    return { status: "error", message: "Something went wrong. Please try again." };
  }
}

function messageFor(error: AppError): string {
  switch (error.code) {
    case "RATE_LIMITED":
      return error.retryAfterSeconds
        ? `Too many attempts. Try again in ${error.retryAfterSeconds} s.`
        : "Too many attempts. Please wait a moment.";
    case "NOT_FOUND":
      return "Not found.";
    case "UNAVAILABLE":
    case "INTERNAL":
    case "CONFIG":
      return "Something went wrong. Please try again.";
    default:
      return error.message;
  }
}
