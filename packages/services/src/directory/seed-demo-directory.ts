import { insertPublicEndpoints, listDirectoryEndpoints } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { API_FAMILIES, NETWORKS } from "@rpcpulse/domain";
import { z } from "zod";

const Latency = z
  .object({
    kind: z.string(),
    medianMs: z.number().optional(),
    p95Ms: z.number().optional(),
    minMs: z.number().optional(),
    maxMs: z.number().optional(),
    ms: z.number().optional(),
  })
  .passthrough();

/** A simnet node as packages/simnet/demo.json describes it (the qualities the ranking should find). */
export const DemoDirectoryNode = z
  .object({
    name: z.string().min(1).max(64),
    family: z.enum(API_FAMILIES),
    network: z.enum(NETWORKS.map((n) => n.slug) as [string, ...string[]]),
    port: z.number().int().min(1).max(65_535),
    latency: Latency.optional(),
    lagBlocks: z.number().optional(),
    errorRate: z.number().optional(),
    errorKind: z.string().optional(),
    stall: z.object({ afterBlocks: z.number() }).passthrough().optional(),
    rateLimit: z.object({ requestsPerSecond: z.number() }).passthrough().optional(),
    archive: z.boolean().optional(),
    missingMethods: z.array(z.string()).optional(),
  })
  .passthrough();
export type DemoDirectoryNode = z.infer<typeof DemoDirectoryNode>;

/** The node's configured qualities in words, e.g. "~40 ms, 25 blocks behind, 2 % http-502". */
export function describeDemoQualities(node: DemoDirectoryNode): string {
  const parts: string[] = [];
  const l = node.latency;
  if (l?.medianMs !== undefined) parts.push(`~${l.medianMs} ms`);
  else if (l?.minMs !== undefined && l.maxMs !== undefined) parts.push(`${l.minMs}-${l.maxMs} ms`);
  if (node.lagBlocks) parts.push(`${node.lagBlocks} blocks behind`);
  if (node.errorRate) parts.push(`${Math.round(node.errorRate * 100)} % ${node.errorKind ?? "errors"}`);
  if (node.stall) parts.push(`stalls after ${node.stall.afterBlocks} blocks`);
  if (node.rateLimit) parts.push(`rate limited ${node.rateLimit.requestsPerSecond}/s`);
  if (node.archive) parts.push("archive");
  return parts.join(", ") || "healthy";
}

/**
 * Lists the simnet demo nodes (127.0.0.1) in the public directory, named with their configured
 * qualities, on probation like any new endpoint (idempotent by URL). Demo mode only: the caller
 * checks it, and the worker needs PROBE_ALLOW_PRIVATE=true to probe loopback.
 */
export async function seedDemoDirectory(
  deps: { sql: SqlClient },
  input: { nodes: unknown[]; host?: string },
): Promise<Array<{ id: string; name: string; url: string; qualities: string }>> {
  const nodes = z.array(DemoDirectoryNode).max(100).parse(input.nodes);
  const host = input.host ?? "127.0.0.1";
  const rows = nodes.map((n) => ({
    network: n.network,
    family: n.family,
    url: `http://${host}:${n.port}`,
    name: `${n.name} (simnet)`,
    provider: `simnet demo: ${describeDemoQualities(n)}`,
    submittedBy: "demo",
    status: "probation" as const,
  }));
  await insertPublicEndpoints(deps.sql, rows);
  const listed = new Map((await listDirectoryEndpoints(deps.sql)).map((e) => [e.url, e]));
  return nodes.map((n, i) => {
    const url = rows[i]?.url ?? "";
    return { id: listed.get(url)?.id ?? "", name: n.name, url, qualities: describeDemoQualities(n) };
  });
}
