"use server";
import {
  BackupCodeInput,
  disableTwoFactor,
  enableTwoFactor,
  TotpCodeInput,
  TwoFactorPasswordInput,
  verifyBackupCode,
  verifyTotp,
} from "@rpcpulse/auth";
import { AppError } from "@rpcpulse/config";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import QRCode from "qrcode";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { applySetCookies } from "@/server/cookies.js";
import { getRuntime } from "@/server/runtime.js";
import { getRequestHeaders, requireSession } from "@/server/session.js";
import { safeNext } from "./safe-next.js";

const EXPIRED_CHALLENGE = "Your sign-in took too long or was already completed. Sign in again with your password.";

/** Step 2 of sign-in with an authenticator code (the challenge cookie of step 1 names the user). */
export async function twoFactorSignInAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(async () => {
    const input = TotpCodeInput.parse(values);
    const { setCookies } = await verifyTotp(getRuntime().auth, input, await getRequestHeaders()).catch(challengeError);
    await applySetCookies(setCookies);
    redirect(safeNext(values.next, "/app"));
  });
}

/** Step 2 of sign-in with a backup code instead (each code works once). */
export async function backupCodeSignInAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(async () => {
    const input = BackupCodeInput.parse(values);
    const { setCookies } = await verifyBackupCode(getRuntime().auth, input, await getRequestHeaders()).catch(
      challengeError,
    );
    await applySetCookies(setCookies);
    redirect(safeNext(values.next, "/app"));
  });
}

function challengeError(error: unknown): never {
  const reason = (error as { details?: { reason?: string } }).details?.reason;
  if (reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
    throw new AppError("VALIDATION", EXPIRED_CHALLENGE);
  }
  throw error;
}

/** Set-up: checks the password, returns the QR code, the otpauth URI and the backup codes (shown once). */
export async function enableTwoFactorAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    await requireSession("/app/account");
    const input = TwoFactorPasswordInput.parse(formValues(formData));
    const { data } = await enableTwoFactor(getRuntime().auth, input, await getRequestHeaders());
    const svg = await QRCode.toString(data.totpURI, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    return {
      status: "ok",
      message: "Scan the code with your authenticator app, then enter the 6-digit code it shows.",
      data: {
        uri: data.totpURI,
        qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
        backupCodes: data.backupCodes.join("\n"),
      },
    };
  });
}

/** Confirms set-up with a first code: from now on sign-in asks for a code. */
export async function confirmTwoFactorAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    await requireSession("/app/account");
    const input = TotpCodeInput.parse(formValues(formData));
    const { setCookies } = await verifyTotp(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    revalidatePath("/app/account");
    return { status: "ok", message: "Two-factor sign-in is on." };
  });
}

export async function disableTwoFactorAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    await requireSession("/app/account");
    const input = TwoFactorPasswordInput.parse(formValues(formData));
    const { setCookies } = await disableTwoFactor(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    revalidatePath("/app/account");
    return { status: "ok", message: "Two-factor sign-in is off." };
  });
}
