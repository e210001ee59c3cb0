import type { ReactNode } from "react";
import { loadEndpointDetail } from "@/features/directory/load-endpoint-detail.js";

/** An unknown endpoint is a 404 before the detail page's skeleton streams a 200. */
export default async function EndpointLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  await loadEndpointDetail((await params).id);
  return children;
}
