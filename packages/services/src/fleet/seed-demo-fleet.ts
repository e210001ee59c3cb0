import { AppError } from "@rpcpulse/config";
import { findOrganizationOwner } from "@rpcpulse/db/orgs";
import { listOrganizationNodeRows } from "@rpcpulse/db/fleet";
import { API_FAMILIES, NETWORKS } from "@rpcpulse/domain";
import { z } from "zod";
import type { ServiceContext, ServiceDeps } from "../context.js";
import type { AgentTokenDeps } from "./agent-tokens/agent-token-deps.js";
import { rotateAgentToken } from "./agent-tokens/rotate-agent-token.js";
import { enrollNode } from "./nodes/enroll-node.js";

/** One simulated node of the demo fleet, as simnet's config file describes it. */
export const DemoNodeSpec = z.object({
  name: z.string().min(1).max(64),
  family: z.enum(API_FAMILIES),
  network: z.enum(NETWORKS.map((n) => n.slug) as [string, ...string[]]),
  port: z.number().int().min(1).max(65_535),
  clientVersion: z.string().max(200).optional(),
  /** Ethereum: the consensus client's Beacon API beside it (simnet `beacon`); the agent reads it (--beacon-url). */
  beacon: z.object({ port: z.number().int().min(1).max(65_535) }).optional(),
});
export type DemoNodeSpec = z.infer<typeof DemoNodeSpec>;

export interface DemoAgent {
  name: string;
  nodeId: string;
  family: DemoNodeSpec["family"];
  rpcUrl: string;
  port: number;
  /** Plaintext agent token, issued (or rotated) by this call: only hashes are stored. */
  token: string;
  /** The consensus client's Beacon API for the agent's --beacon-url (Ethereum nodes with one). */
  beaconUrl?: string;
  enrolled: boolean;
}

/** The client software a node of this family and network runs, for the fleet's client column. */
function clientOf(spec: DemoNodeSpec): { clientName: string; clientVersion: string | undefined } {
  const version = spec.clientVersion;
  if (spec.family === "hive")
    return { clientName: spec.network === "steem" ? "steemd" : "hived", clientVersion: undefined };
  if (spec.family === "ethereum") {
    return {
      clientName: version?.toLowerCase().startsWith("nethermind") ? "nethermind" : "geth",
      clientVersion: undefined,
    };
  }
  if (spec.family === "substrate") return { clientName: "polkadot", clientVersion: undefined };
  return { clientName: "substrate-api-sidecar", clientVersion: undefined };
}

/**
 * Public URLs of demo nodes, by node name → the simnet node that answers there. hive-api's "public
 * URL" is the lagging Hive node: a load balancer serving a stale backend, which the fleet and node
 * pages flag (public head vs node head); eth-geth's is itself (in step).
 */
const DEMO_PUBLIC_URL_OF: Record<string, string> = { "hive-api": "hive-lagging", "eth-geth": "eth-geth" };

function demoPublicUrl(spec: DemoNodeSpec, specs: readonly DemoNodeSpec[]): string | undefined {
  const target = specs.find((s) => s.name === DEMO_PUBLIC_URL_OF[spec.name]);
  return target ? `http://127.0.0.1:${target.port}` : undefined;
}

/**
 * Enrol the simulated demo nodes in the demo organization (idempotent by node name) and issue
 * each a fresh agent token, so the quick start can run one agent per node. Demo mode only: the
 * caller checks DEMO_MODE; this refuses organizations without an owner.
 */
export async function seedDemoFleet(
  deps: ServiceDeps & AgentTokenDeps,
  input: { organizationSlug: string; nodes: unknown[] },
): Promise<DemoAgent[]> {
  const specs = z.array(DemoNodeSpec).max(50).parse(input.nodes);
  const owner = await findOrganizationOwner(deps.prisma, input.organizationSlug);
  if (!owner) throw new AppError("NOT_FOUND", `Organization ${input.organizationSlug} does not exist (yet).`);
  const ctx: ServiceContext = { ...owner, role: "owner" };
  const existing = new Map((await listOrganizationNodeRows(deps.prisma, owner.organizationId)).map((n) => [n.name, n]));
  const agents: DemoAgent[] = [];
  for (const spec of specs) {
    const rpcUrl = `http://127.0.0.1:${spec.port}`;
    const beacon = spec.beacon ? { beaconUrl: `http://127.0.0.1:${spec.beacon.port}` } : {};
    const found = existing.get(spec.name);
    if (found) {
      // Tokens are stored hashed, so a restarted demo gets a new one; the old ones end at once.
      const issued = await rotateAgentToken(deps, ctx, { nodeId: found.id, overlapMs: 0 });
      agents.push({
        name: spec.name,
        nodeId: found.id,
        family: spec.family,
        rpcUrl,
        port: spec.port,
        token: issued.token,
        enrolled: false,
        ...beacon,
      });
      continue;
    }
    const { node, issued } = await enrollNode(deps, ctx, {
      network: spec.network,
      apiFamily: spec.family,
      ...clientOf(spec),
      name: spec.name,
      localRpcUrl: rpcUrl,
      publicUrl: demoPublicUrl(spec, specs),
      region: "local",
    });
    agents.push({
      name: spec.name,
      nodeId: node.id,
      family: spec.family,
      rpcUrl,
      port: spec.port,
      token: issued.token,
      enrolled: true,
      ...beacon,
    });
  }
  return agents;
}
