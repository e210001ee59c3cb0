import { z } from "zod";
import { callAuthEndpoint, type AuthEndpointResult } from "./call-auth-endpoint.js";
import type { Auth } from "./create-auth.js";
import { MAX_PASSWORD_LENGTH } from "./create-auth.js";

const Password = z.string().min(1, "Enter your password").max(MAX_PASSWORD_LENGTH);

export const TwoFactorPasswordInput = z.object({ password: Password });
export type TwoFactorPasswordInput = z.infer<typeof TwoFactorPasswordInput>;

export const TotpCodeInput = z.object({
  code: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app")),
});
export type TotpCodeInput = z.input<typeof TotpCodeInput>;

export const BackupCodeInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, "Enter one of your backup codes (xxxxx-xxxxx)")
    .transform((v) => (v.includes("-") ? v : `${v.slice(0, 5)}-${v.slice(5)}`)),
});
export type BackupCodeInput = z.input<typeof BackupCodeInput>;

export interface TwoFactorSetup {
  /** otpauth://totp/... with the secret, for the QR code and for manual entry. */
  totpURI: string;
  /** Shown once; each works once in place of a code. */
  backupCodes: string[];
}

/** Starts TOTP set-up (password required); two-factor sign-in is on once a code is confirmed. */
export async function enableTwoFactor(
  auth: Auth,
  input: TwoFactorPasswordInput,
  headers: Headers,
): Promise<AuthEndpointResult<TwoFactorSetup>> {
  const { password } = TwoFactorPasswordInput.parse(input);
  return callAuthEndpoint(auth, { path: "/two-factor/enable", body: { password, method: "totp" }, headers });
}

/**
 * Checks a TOTP code: with a session it confirms the set-up; during sign-in (the two-factor
 * cookie of the first step) it completes the sign-in and sets the session cookie.
 */
export async function verifyTotp(
  auth: Auth,
  input: TotpCodeInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ token: string }>> {
  const { code } = TotpCodeInput.parse(input);
  return callAuthEndpoint(auth, { path: "/two-factor/verify-totp", body: { code }, headers });
}

/** Completes a two-factor sign-in with a backup code, which is used up. */
export async function verifyBackupCode(
  auth: Auth,
  input: BackupCodeInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ token: string }>> {
  const { code } = BackupCodeInput.parse(input);
  return callAuthEndpoint(auth, { path: "/two-factor/verify-backup-code", body: { code }, headers });
}

/** Turns two-factor sign-in off (password required); the secret and backup codes are deleted. */
export async function disableTwoFactor(
  auth: Auth,
  input: TwoFactorPasswordInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ status: boolean }>> {
  const { password } = TwoFactorPasswordInput.parse(input);
  return callAuthEndpoint(auth, { path: "/two-factor/disable", body: { password }, headers });
}
