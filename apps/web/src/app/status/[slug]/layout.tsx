import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { loadSnapshot } from "@/features/status/public-route.js";

/** A draft or unknown page is a 404 before the status page's skeleton streams a 200. */
export default async function PublicStatusLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}) {
  if (!(await loadSnapshot((await params).slug))) notFound();
  return children;
}
