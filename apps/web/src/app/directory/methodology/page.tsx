import type { Metadata } from "next";
import { MethodologyContent } from "@/features/directory/methodology-content.js";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Ranking methodology",
  description: "How RPC Pulse probes public RPC endpoints, finds the network head and scores and ranks endpoints.",
};

export default function MethodologyPage() {
  return <MethodologyContent />;
}
