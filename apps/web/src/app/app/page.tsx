import { redirect } from "next/navigation";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireSession } from "@/server/session.js";

export const dynamic = "force-dynamic";

/** /app: the session's active organization if still a member, else the first one, else create one. */
export default async function AppIndexPage() {
  const session = await requireSession("/app");
  const orgs = await getUserOrganizations(session.userId);
  const active = orgs.find((o) => o.id === session.activeOrganizationId) ?? orgs[0];
  redirect(active ? `/app/o/${active.slug}` : "/app/new-organization");
}
