import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@rpcpulse/config";
import { getNode } from "@rpcpulse/services/fleet";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";

/** A node of another organization (or none) is a 404 before the node page's skeleton streams a 200. */
export default async function NodeLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string; nodeId: string }>;
}) {
  const { slug, nodeId } = await params;
  const { ctx } = await requireOrgContext(slug);
  const { prisma } = getRuntime();
  try {
    await getNode({ prisma }, ctx, { nodeId });
  } catch (error) {
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "VALIDATION")) notFound();
    throw error;
  }
  return children;
}
