"use server";
import {
  RequestPasswordResetInput,
  requestPasswordReset,
  resetPassword,
  ResetPasswordInput,
  sendVerificationEmail,
  verifyEmail,
  VerifyEmailInput,
} from "@rpcpulse/auth";
import { isAppError } from "@rpcpulse/config";
import { redirect } from "next/navigation";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { getRequestHeaders, requireSession } from "@/server/session.js";
import { safeNext } from "./safe-next.js";

const NO_MAIL =
  "Password reset by email is not available on this server. Ask your administrator to reset your password.";

function reasonOf(error: unknown): string | undefined {
  return isAppError(error) ? (error.details as { reason?: string } | undefined)?.reason : undefined;
}

/** Same answer whether or not the address has an account. */
export async function requestPasswordResetAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const result = await runFormAction(async () => {
    if (!getRuntime().mailer) return { status: "error", message: NO_MAIL };
    const input = RequestPasswordResetInput.parse(values);
    await requestPasswordReset(getRuntime().auth, input, await getRequestHeaders());
    return {
      status: "ok",
      message: `If an account uses ${input.email}, we have emailed it a link to choose a new password. The link works once, for one hour.`,
    };
  });
  return { ...result, values: { email: values.email ?? "" } };
}

export async function resetPasswordAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = ResetPasswordInput.parse(formValues(formData));
    try {
      await resetPassword(getRuntime().auth, input, await getRequestHeaders());
    } catch (error) {
      if (reasonOf(error) === "INVALID_TOKEN") {
        return { status: "error", message: "This link has expired or was already used. Request a new one." };
      }
      throw error;
    }
    redirect("/sign-in?reset=1");
  });
}

export async function verifyEmailAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(async () => {
    const input = VerifyEmailInput.parse(values);
    const next = safeNext(values.next, "/app");
    try {
      await verifyEmail(getRuntime().auth, input, await getRequestHeaders());
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === "TOKEN_EXPIRED") {
        return { status: "error", message: "This link has expired. Sign in and send yourself a new one." };
      }
      if (reason === "VERIFICATION_LINK_USED" || reason === "INVALID_TOKEN" || reason === "USER_NOT_FOUND") {
        return { status: "error", message: "This link was already used or is not valid." };
      }
      throw error;
    }
    return { status: "ok", message: "Your email address is confirmed.", data: { next } };
  });
}

export async function resendVerificationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(async () => {
    const session = await requireSession("/app/account");
    if (session.emailVerified) return { status: "ok", message: "Your email address is already confirmed." };
    if (!getRuntime().mailer) return { status: "error", message: "This server cannot send email." };
    const next = safeNext(values.next, "");
    await sendVerificationEmail(
      getRuntime().auth,
      { email: session.email, next: next || undefined },
      await getRequestHeaders(),
    );
    return { status: "ok", message: `We sent a new link to ${session.email}. It works once, for 24 hours.` };
  });
}
