import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { findNetwork } from "@rpcpulse/domain";

/** An unknown network is a 404 before the ranking's skeleton streams a 200. */
export default async function NetworkLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ network: string }>;
}) {
  if (!findNetwork((await params).network)) notFound();
  return children;
}
