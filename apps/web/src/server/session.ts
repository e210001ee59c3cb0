import "server-only";
import { getSessionInfo, type SessionInfo } from "@rpcpulse/auth";
import { isAppError } from "@rpcpulse/config";
import { resolveServiceContext, type ServiceContext } from "@rpcpulse/services/context";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getRuntime } from "./runtime.js";

export async function getRequestHeaders(): Promise<Headers> {
  return new Headers(await headers());
}

export async function getCurrentSession(): Promise<SessionInfo | null> {
  return getSessionInfo(getRuntime().auth, await getRequestHeaders());
}

/** For pages: the session, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireSession(returnTo?: string): Promise<SessionInfo> {
  const session = await getCurrentSession();
  if (!session) redirect(returnTo ? `/sign-in?next=${encodeURIComponent(returnTo)}` : "/sign-in");
  return session;
}

/**
 * For org pages: the session and a ServiceContext built from the user's membership of the
 * organization named in the URL. Not a member (or no such org): 404, the same answer either way.
 */
export async function requireOrgContext(slug: string): Promise<{ session: SessionInfo; ctx: ServiceContext }> {
  const session = await requireSession(`/app/o/${slug}`);
  try {
    const ctx = await resolveServiceContext(
      { prisma: getRuntime().prisma },
      { userId: session.userId, organizationSlug: slug },
    );
    return { session, ctx };
  } catch (error) {
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "VALIDATION")) notFound();
    throw error;
  }
}
