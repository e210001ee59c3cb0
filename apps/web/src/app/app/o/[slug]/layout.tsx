import type { ReactNode } from "react";
import { requireOrgContext } from "@/server/session.js";

export const dynamic = "force-dynamic";

/**
 * The organization check runs here, above every loading.tsx of the organization's pages: a page's
 * skeleton streams a 200 before the page itself runs, so a notFound() there would come too late to
 * answer another organization's URLs with a real 404.
 */
export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}) {
  await requireOrgContext((await params).slug);
  return children;
}
