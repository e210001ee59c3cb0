import { z } from "zod";
import { callAuthEndpoint, type AuthEndpointResult } from "./call-auth-endpoint.js";
import type { Auth } from "./create-auth.js";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./create-auth.js";

const Email = z.string().trim().toLowerCase().pipe(z.email().max(254));
const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`);

export const SignUpInput = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100),
  email: Email,
  password: Password,
});
export type SignUpInput = z.infer<typeof SignUpInput>;

export const SignInInput = z.object({
  email: Email,
  // No length rule on sign-in: a wrong password is just wrong, whatever its length.
  password: z.string().min(1, "Enter your password").max(MAX_PASSWORD_LENGTH),
});
export type SignInInput = z.infer<typeof SignInInput>;

export const ChangePasswordInput = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(MAX_PASSWORD_LENGTH),
  newPassword: Password,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

interface UserBody {
  user: { id: string; email: string; name: string };
}

/** `next` (a same-site path) is where the verification mail sent on sign-up continues to. */
export async function signUp(
  auth: Auth,
  input: SignUpInput,
  headers: Headers,
  options: { next?: string | undefined } = {},
): Promise<AuthEndpointResult<UserBody>> {
  const body = SignUpInput.parse(input);
  return callAuthEndpoint<UserBody>(auth, {
    path: "/sign-up/email",
    body: { ...body, ...(options.next ? { callbackURL: options.next } : {}) },
    headers,
  });
}

/** With two-factor sign-in on, the first step answers `twoFactorRedirect` and sets a short-lived challenge cookie. */
export type SignInBody = UserBody | { twoFactorRedirect: true; twoFactorMethods?: string[] };

export function needsSecondFactor(body: SignInBody): body is { twoFactorRedirect: true } {
  return "twoFactorRedirect" in body && body.twoFactorRedirect === true;
}

export async function signIn(
  auth: Auth,
  input: SignInInput,
  headers: Headers,
): Promise<AuthEndpointResult<SignInBody>> {
  const body = SignInInput.parse(input);
  return callAuthEndpoint<SignInBody>(auth, { path: "/sign-in/email", body: { ...body, rememberMe: true }, headers });
}

export async function signOut(auth: Auth, headers: Headers): Promise<AuthEndpointResult<{ success: boolean }>> {
  return callAuthEndpoint(auth, { path: "/sign-out", headers });
}

/** Changes the password and revokes every session of the user; the caller gets a fresh one. */
export async function changePassword(
  auth: Auth,
  input: ChangePasswordInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ token: string | null }>> {
  const body = ChangePasswordInput.parse(input);
  return callAuthEndpoint(auth, { path: "/change-password", body: { ...body, revokeOtherSessions: true }, headers });
}
