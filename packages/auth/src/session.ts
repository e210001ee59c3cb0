import type { Auth } from "./create-auth.js";

export interface SessionInfo {
  userId: string;
  email: string;
  name: string;
  /** Confirmed through a verification (or password reset) link. */
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  sessionId: string;
  activeOrganizationId: string | null;
  expiresAt: Date;
}

/**
 * The signed-in user for a request, or null. Read-only: never refreshes the session (server
 * components cannot set cookies); the browser refreshes it through GET /api/auth/get-session.
 */
export async function getSessionInfo(auth: Auth, headers: Headers): Promise<SessionInfo | null> {
  const result = await auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!result) return null;
  const session = result.session as typeof result.session & { activeOrganizationId?: string | null };
  const user = result.user as typeof result.user & { twoFactorEnabled?: boolean | null };
  return {
    userId: result.user.id,
    email: result.user.email,
    name: result.user.name,
    emailVerified: Boolean(user.emailVerified),
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    sessionId: session.id,
    activeOrganizationId: session.activeOrganizationId ?? null,
    expiresAt: new Date(session.expiresAt),
  };
}
