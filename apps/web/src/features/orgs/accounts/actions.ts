"use server";
import {
  changePassword,
  ChangePasswordInput,
  needsSecondFactor,
  signIn,
  SignInInput,
  signOut,
  signUp,
  SignUpInput,
} from "@rpcpulse/auth";
import { redirect } from "next/navigation";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { applySetCookies } from "@/server/cookies.js";
import { getRuntime } from "@/server/runtime.js";
import { getRequestHeaders, requireSession } from "@/server/session.js";
import { safeNext } from "./safe-next.js";

export async function signUpAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const result = await runFormAction(async () => {
    const input = SignUpInput.parse(values);
    const next = safeNext(values.next, "");
    const { setCookies } = await signUp(getRuntime().auth, input, await getRequestHeaders(), {
      next: next || undefined,
    });
    await applySetCookies(setCookies);
    redirect(safeNext(values.next, "/app"));
  });
  return { ...result, values: { name: values.name ?? "", email: values.email ?? "" } };
}

export async function signInAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const result = await runFormAction(async () => {
    const input = SignInInput.parse(values);
    const { data, setCookies } = await signIn(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    const next = safeNext(values.next, "/app");
    // Two-factor sign-in: no session yet, only a short-lived challenge cookie; the code comes next.
    if (needsSecondFactor(data)) redirect(`/sign-in/two-factor?next=${encodeURIComponent(next)}`);
    redirect(next);
  });
  return { ...result, values: { email: values.email ?? "" } };
}

export async function signOutAction(): Promise<void> {
  try {
    const { setCookies } = await signOut(getRuntime().auth, await getRequestHeaders());
    await applySetCookies(setCookies);
  } catch (error) {
    // Already signed out (or the session expired): the outcome the user wanted anyway.
    getRuntime().logger.debug({ err: error instanceof Error ? error.message : String(error) }, "sign-out");
  }
  redirect("/sign-in?signedOut=1");
}

export async function changePasswordAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    await requireSession("/app/account");
    const input = ChangePasswordInput.parse(formValues(formData));
    const { setCookies } = await changePassword(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    return { status: "ok", message: "Password changed. Every other session has been signed out." };
  });
}
