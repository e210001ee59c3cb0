import { z } from "zod";
import { callAuthEndpoint, type AuthEndpointResult } from "./call-auth-endpoint.js";
import type { Auth } from "./create-auth.js";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./create-auth.js";

const Email = z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address").max(254));
/** Reset tokens are 24 alphanumerics; verification tokens are JWTs. Bounded either way. */
const Token = z
  .string()
  .trim()
  .min(1, "The link is incomplete")
  .max(2048)
  .regex(/^[A-Za-z0-9._-]+$/, "The link is not valid");

export const RequestPasswordResetInput = z.object({ email: Email });
export type RequestPasswordResetInput = z.infer<typeof RequestPasswordResetInput>;

export const ResetPasswordInput = z.object({
  token: Token,
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

export const VerifyEmailInput = z.object({ token: Token });
export type VerifyEmailInput = z.infer<typeof VerifyEmailInput>;

/**
 * Mails a reset link when the address has an account; answers the same either way (and the mail
 * goes out in the background, so the timing does not tell either).
 */
export async function requestPasswordReset(
  auth: Auth,
  input: RequestPasswordResetInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ status: boolean }>> {
  const body = RequestPasswordResetInput.parse(input);
  return callAuthEndpoint(auth, { path: "/request-password-reset", body, headers });
}

/** Sets the new password, consumes the link and revokes every session of the user. */
export async function resetPassword(
  auth: Auth,
  input: ResetPasswordInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ status: boolean }>> {
  const body = ResetPasswordInput.parse(input);
  return callAuthEndpoint(auth, { path: "/reset-password", body, headers });
}

export type ResetLinkState = "valid" | "expired" | "invalid";

/** What a reset link is worth before the form is shown (read-only: the link is consumed on reset). */
export async function checkPasswordResetLink(auth: Auth, token: string): Promise<ResetLinkState> {
  const parsed = Token.safeParse(token);
  if (!parsed.success) return "invalid";
  const ctx = await auth.$context;
  const row = await ctx.internalAdapter.findVerificationValue(`reset-password:${parsed.data}`);
  if (!row) return "invalid";
  return new Date(row.expiresAt).getTime() > Date.now() ? "valid" : "expired";
}

/** Mails a fresh verification link to the signed-in user; `next` is where its page continues to. */
export async function sendVerificationEmail(
  auth: Auth,
  input: { email: string; next?: string | undefined },
  headers: Headers,
): Promise<AuthEndpointResult<{ status: boolean }>> {
  const email = Email.parse(input.email);
  return callAuthEndpoint(auth, {
    path: "/send-verification-email",
    body: { email, ...(input.next ? { callbackURL: input.next } : {}) },
    headers,
  });
}

/** Confirms the address of a verification link (single-use: see consumeVerificationLink). */
export async function verifyEmail(
  auth: Auth,
  input: VerifyEmailInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ status: boolean; user: unknown }>> {
  const { token } = VerifyEmailInput.parse(input);
  return callAuthEndpoint(auth, { path: `/verify-email?token=${encodeURIComponent(token)}`, method: "GET", headers });
}
