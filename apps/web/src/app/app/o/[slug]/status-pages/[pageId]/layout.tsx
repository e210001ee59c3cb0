import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@rpcpulse/config";
import { getStatusPageForAdmin } from "@rpcpulse/services/status";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { requireOrgContext } from "@/server/session.js";

/** Another organization's status page (or none) is a 404 before the editor's skeleton streams a 200. */
export default async function StatusPageAdminLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string; pageId: string }>;
}) {
  const { slug, pageId } = await params;
  const { ctx } = await requireOrgContext(slug);
  try {
    await getStatusPageForAdmin(getStatusReadDeps(), ctx, { pageId });
  } catch (error) {
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "VALIDATION")) notFound();
    throw error;
  }
  return children;
}
