import { APIError } from "better-auth/api";
import type { Logger } from "@rpcpulse/config";
import {
  formatInvitationEmail,
  formatPasswordResetEmail,
  formatVerificationEmail,
  type AuthEmail,
  type AuthMailer,
} from "./auth-mail.js";
import { DEMO_EMAIL } from "./demo-constants.js";
import { takeMailAllowance, type ThrottleAdapter } from "./mail-throttle.js";

/** A reset link works once and for one hour. */
export const RESET_PASSWORD_EXPIRES_IN_SECONDS = 60 * 60;
/** A verification link works once and for one day. */
export const EMAIL_VERIFICATION_EXPIRES_IN_SECONDS = 24 * 60 * 60;

/** The part of better-auth's internal adapter these flows use. */
export interface VerificationStore {
  createVerificationValue(data: { identifier: string; value: string; expiresAt: Date }): Promise<unknown>;
  findVerificationValue(identifier: string): Promise<{ value: string; expiresAt: Date } | null>;
  consumeVerificationValue(identifier: string): Promise<{ value: string; expiresAt: Date } | null>;
  updateUser(userId: string, data: { emailVerified: boolean }): Promise<unknown>;
}

interface MailUser {
  id: string;
  email: string;
}

export interface EmailFlowDeps {
  mailer: AuthMailer;
  /** The app's public origin; every link in a mail points at a page of the web app. */
  origin: string;
  demoMode: boolean;
  log: Logger | undefined;
  /** better-auth's context, resolved lazily (the callbacks are created before the auth instance). */
  store: () => Promise<VerificationStore>;
  /** better-auth's database adapter (the per-address mail budget lives in rate_limits). */
  adapter: () => Promise<ThrottleAdapter>;
}

/** The verification row that makes an email verification link single-use (its identifier is stored hashed). */
export function verificationLinkIdentifier(token: string): string {
  return `verify-email:${token}`;
}

/** Only a same-site path survives as the "continue" target of a verification link (no open redirect). */
export function sameSitePath(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value === "/") {
    return undefined;
  }
  return value;
}

/**
 * Sends in the background and logs the outcome without the address: the request that triggered a
 * mail never waits for the relay (and a password reset answers alike whether the address exists).
 */
function sendInBackground(deps: EmailFlowDeps, kind: string, userId: string | undefined, email: AuthEmail): void {
  void deps.mailer
    .send(email)
    .then((outcome) => {
      if (outcome.ok) deps.log?.info({ kind, userId }, "account email sent");
      else deps.log?.warn({ kind, userId, err: outcome.error }, "account email could not be sent");
    })
    .catch((error: unknown) => {
      deps.log?.warn(
        { kind, userId, err: error instanceof Error ? error.message : String(error) },
        "account email failed",
      );
    });
}

/** better-auth options for password reset, email verification and invitation mail. */
export function createEmailFlows(deps: EmailFlowDeps) {
  return {
    sendResetPassword: async ({ user, token }: { user: MailUser; token: string }) => {
      // The demo password is public and unchangeable; nobody may reset it either.
      if (deps.demoMode && user.email === DEMO_EMAIL) return;
      if (!(await takeMailAllowance(await deps.adapter(), "password-reset", user.id))) {
        deps.log?.warn(
          { kind: "password-reset", userId: user.id },
          "account email skipped: address over its hourly budget",
        );
        return;
      }
      const url = `${deps.origin}/reset-password?token=${encodeURIComponent(token)}`;
      sendInBackground(
        deps,
        "password-reset",
        user.id,
        formatPasswordResetEmail({ to: user.email, url, expiresInSeconds: RESET_PASSWORD_EXPIRES_IN_SECONDS }),
      );
    },
    /** A reset link reached the mailbox: the address is proven, so it counts as verified. */
    onPasswordReset: async ({ user }: { user: MailUser & { emailVerified?: boolean } }) => {
      if (!user.emailVerified) await (await deps.store()).updateUser(user.id, { emailVerified: true });
    },
    sendVerificationEmail: async ({ user, url, token }: { user: MailUser; url: string; token: string }) => {
      if (!(await takeMailAllowance(await deps.adapter(), "email-verification", user.id))) {
        deps.log?.warn(
          { kind: "email-verification", userId: user.id },
          "account email skipped: address over its hourly budget",
        );
        return;
      }
      const store = await deps.store();
      await store.createVerificationValue({
        identifier: verificationLinkIdentifier(token),
        value: user.id,
        expiresAt: new Date(Date.now() + EMAIL_VERIFICATION_EXPIRES_IN_SECONDS * 1000),
      });
      const next = sameSitePath(new URL(url).searchParams.get("callbackURL"));
      const link = `${deps.origin}/verify-email?token=${encodeURIComponent(token)}${next ? `&next=${encodeURIComponent(next)}` : ""}`;
      sendInBackground(
        deps,
        "email-verification",
        user.id,
        formatVerificationEmail({ to: user.email, url: link, expiresInSeconds: EMAIL_VERIFICATION_EXPIRES_IN_SECONDS }),
      );
    },
    sendInvitationEmail: async (data: {
      id: string;
      email: string;
      role: string;
      organization: { id: string; name: string };
      inviter: { user: { email: string } };
      invitation: { expiresAt: Date };
    }) => {
      sendInBackground(
        deps,
        "invitation",
        undefined,
        formatInvitationEmail({
          to: data.email,
          url: `${deps.origin}/invite/${encodeURIComponent(data.id)}`,
          organizationName: data.organization.name,
          inviterEmail: data.inviter.user.email,
          role: data.role,
          expiresAt: new Date(data.invitation.expiresAt),
        }),
      );
    },
  };
}

/**
 * Before GET /verify-email: the link must name a stored, unexpired verification row, which is
 * consumed here. better-auth's token alone (a signed JWT) could be replayed until it expires.
 */
export async function consumeVerificationLink(store: VerificationStore, token: unknown): Promise<void> {
  if (typeof token !== "string" || !token) {
    throw new APIError("BAD_REQUEST", { message: "This link is not valid.", code: "INVALID_TOKEN" });
  }
  const identifier = verificationLinkIdentifier(token);
  const row = await store.findVerificationValue(identifier);
  if (!row) {
    throw new APIError("BAD_REQUEST", {
      message: "This link was already used or is not valid.",
      code: "VERIFICATION_LINK_USED",
    });
  }
  if (new Date(row.expiresAt).getTime() <= Date.now()) {
    throw new APIError("BAD_REQUEST", { message: "This link has expired.", code: "TOKEN_EXPIRED" });
  }
  if (!(await store.consumeVerificationValue(identifier))) {
    throw new APIError("BAD_REQUEST", {
      message: "This link was already used or is not valid.",
      code: "VERIFICATION_LINK_USED",
    });
  }
}
