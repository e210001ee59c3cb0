import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { organization } from "better-auth/plugins/organization";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Logger } from "@rpcpulse/config";
import type { PrismaClient } from "@rpcpulse/db/sql";
import { accessControl, orgRoles } from "./access-control.js";
import type { ThrottleAdapter } from "./mail-throttle.js";
import type { AuthMailer } from "./auth-mail.js";
import { DEMO_EMAIL } from "./demo-constants.js";
import {
  consumeVerificationLink,
  createEmailFlows,
  EMAIL_VERIFICATION_EXPIRES_IN_SECONDS,
  RESET_PASSWORD_EXPIRES_IN_SECONDS,
  type VerificationStore,
} from "./email-flows.js";

export const SESSION_EXPIRES_IN_SECONDS = 7 * 24 * 60 * 60;
/** A session used at least once a day keeps sliding forward; idle for 7 days it expires. */
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;
export const INVITATION_EXPIRES_IN_SECONDS = 7 * 24 * 60 * 60;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

export interface RateLimitRule {
  /** Seconds. */
  window: number;
  max: number;
}

/** Per client IP and path. Stored in PostgreSQL (rate_limits), so limits hold across restarts and instances. */
export interface AuthRateLimits {
  default: RateLimitRule;
  signIn: RateLimitRule;
  signUp: RateLimitRule;
  changePassword: RateLimitRule;
  passwordReset: RateLimitRule;
  /** Resending the verification email. */
  verificationEmail: RateLimitRule;
  /** Two-factor sign-in codes, enabling and disabling. */
  twoFactor: RateLimitRule;
}

export const DEFAULT_RATE_LIMITS: AuthRateLimits = {
  default: { window: 60, max: 120 },
  signIn: { window: 60, max: 10 },
  signUp: { window: 600, max: 10 },
  changePassword: { window: 60, max: 5 },
  passwordReset: { window: 600, max: 3 },
  verificationEmail: { window: 600, max: 3 },
  twoFactor: { window: 60, max: 10 },
};

/** Shown as the issuer in authenticator apps. */
export const TOTP_ISSUER = "RPC Pulse";

export interface CreateAuthOptions {
  prisma: PrismaClient;
  /** The app's public origin, e.g. https://pulse.example.org. The only trusted origin. */
  baseUrl: string;
  /** BETTER_AUTH_SECRET: signs session cookies. At least 32 characters. */
  secret: string;
  /** Defaults to true when baseUrl is https. */
  secureCookies?: boolean;
  demoMode: boolean;
  logger?: Logger;
  rateLimits?: Partial<AuthRateLimits>;
  /** Reverse proxies whose X-Forwarded-For entries are trusted when resolving the client IP. */
  trustedProxies?: string[];
  /**
   * The SMTP relay for account mail (password reset, verification, invitations). Without one those
   * mails are off: no reset by email, and invitations are accepted without a verified address
   * (there is no way to verify one); the web app says so.
   */
  mailer?: AuthMailer | null;
}

/**
 * better-auth configured for RPC Pulse: email + password (scrypt), database sessions that expire,
 * organizations with owner/admin/viewer roles and expiring invitations, database-backed rate limits,
 * origin-checked (CSRF) state-changing requests and HttpOnly, SameSite=Lax cookies.
 */
export function createAuth(options: CreateAuthOptions) {
  const baseUrl = new URL(options.baseUrl);
  const origin = baseUrl.origin;
  const secure = options.secureCookies ?? baseUrl.protocol === "https:";
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const log = options.logger?.child({ component: "auth" });
  const mailer = options.mailer ?? null;
  const context: { current?: Promise<{ internalAdapter: VerificationStore; adapter: ThrottleAdapter }> } = {};
  const ready = () => {
    if (!context.current) throw new Error("auth context is not ready");
    return context.current;
  };
  const mail = mailer
    ? createEmailFlows({
        mailer,
        origin,
        demoMode: options.demoMode,
        log,
        store: async () => (await ready()).internalAdapter,
        adapter: async () => (await ready()).adapter,
      })
    : null;

  const auth = betterAuth({
    appName: "RPC Pulse",
    baseURL: origin,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: [origin],
    database: prismaAdapter(options.prisma, { provider: "postgresql", transaction: true }),
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        if (!log) return;
        const extra = args.length ? { args: args.map((a) => (a instanceof Error ? a.message : a)) } : {};
        log[level === "debug" ? "debug" : level](extra, message);
      },
    },
    emailAndPassword: {
      enabled: true,
      // Password hashing: better-auth's scrypt (node:crypto, N=16384, r=16, p=1, 16-byte salt),
      // run on libuv's thread pool so it does not block the event loop.
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      // Unverified users may sign in (and create organizations); joining one needs a verified address.
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_PASSWORD_EXPIRES_IN_SECONDS,
      ...(mail ? { sendResetPassword: mail.sendResetPassword, onPasswordReset: mail.onPasswordReset } : {}),
    },
    ...(mail
      ? {
          emailVerification: {
            sendOnSignUp: true,
            sendOnSignIn: false,
            autoSignInAfterVerification: false,
            expiresIn: EMAIL_VERIFICATION_EXPIRES_IN_SECONDS,
            sendVerificationEmail: mail.sendVerificationEmail,
          },
        }
      : {}),
    // Reset, verification and two-factor challenge tokens are stored as SHA-256 of the identifier.
    verification: { storeIdentifier: "hashed" },
    session: {
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      // No cookie cache: every request reads the session row, so revocation takes effect at once.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: limits.default.window,
      max: limits.default.max,
      customRules: {
        "/sign-in/*": limits.signIn,
        "/sign-up/*": limits.signUp,
        "/change-password": limits.changePassword,
        "/request-password-reset": limits.passwordReset,
        "/reset-password": limits.passwordReset,
        "/send-verification-email": limits.verificationEmail,
        "/two-factor/*": limits.twoFactor,
      },
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: "rpcpulse",
      // CSRF: better-auth skips its origin check when NODE_ENV=test unless told otherwise; keep it on
      // everywhere, so a mis-set NODE_ENV can never turn the protection off.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: {
        ipAddressHeaders: ["x-forwarded-for"],
        ...(options.trustedProxies?.length ? { trustedProxies: options.trustedProxies } : {}),
      },
    },
    hooks: {
      // A password change always ends every other session (a stolen cookie dies with the old password).
      // In demo mode the demo password is public: nobody may change it and lock other visitors out.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/verify-email") {
          await consumeVerificationLink(
            ctx.context.internalAdapter,
            (ctx.query as { token?: unknown } | undefined)?.token,
          );
          return undefined;
        }
        if (ctx.path === "/two-factor/enable" && options.demoMode) {
          const current = await getSessionFromCtx(ctx);
          if (current?.user.email === DEMO_EMAIL) {
            throw new APIError("FORBIDDEN", { message: "The demo account cannot turn on two-factor sign-in." });
          }
          return undefined;
        }
        if (ctx.path === "/change-password") {
          if (options.demoMode) {
            const current = await getSessionFromCtx(ctx);
            if (current?.user.email === DEMO_EMAIL) {
              throw new APIError("FORBIDDEN", { message: "The demo account's password cannot be changed." });
            }
          }
          return { context: { body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
        }
        return undefined;
      }),
    },
    plugins: [
      organization({
        ac: accessControl,
        roles: orgRoles,
        creatorRole: "owner",
        allowUserToCreateOrganization: true,
        organizationLimit: 20,
        membershipLimit: 200,
        invitationExpiresIn: INVITATION_EXPIRES_IN_SECONDS,
        cancelPendingInvitationsOnReInvite: true,
        // With mail, the invitee must confirm the invited address before joining; without, it cannot.
        requireEmailVerificationOnInvitation: Boolean(mail),
        // The inviter also sees the link in the UI (to send by other means).
        sendInvitationEmail: async (data) => {
          log?.info({ invitationId: data.id, organizationId: data.organization.id }, "invitation created");
          if (mail) await mail.sendInvitationEmail(data);
        },
      }),
      // TOTP: the secret and the backup codes are stored encrypted with the auth secret.
      twoFactor({
        issuer: TOTP_ISSUER,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
        // A new device always asks for the code (no "trust this device" cookie is offered by the UI).
        trustDeviceMaxAge: 30 * 24 * 60 * 60,
      }),
    ],
  });
  context.current = auth.$context;
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
