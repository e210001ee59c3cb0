import { AppError } from "@rpcpulse/config";
import { findNetworkBySlug, type NodeFields, type NodeRow, type NodeWriteResult } from "@rpcpulse/db/fleet";
import type { ServiceDeps } from "../../context.js";
import { NodeInput } from "./node-input.js";

/** The form's fields as a node row's: the network from the chain catalogue, the API family one its chain speaks. */
export async function toNodeFields(deps: ServiceDeps, input: unknown): Promise<NodeFields> {
  const parsed = NodeInput.parse(input);
  const network = await findNetworkBySlug(deps.prisma, parsed.network);
  if (!network) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  if (!network.apiFamilies.includes(parsed.apiFamily)) {
    throw new AppError(
      "VALIDATION",
      `A ${network.chainSlug} node speaks ${network.apiFamilies.join(" or ")}, not ${parsed.apiFamily}.`,
      { details: { field: "apiFamily" } },
    );
  }
  return {
    networkId: network.id,
    apiFamily: parsed.apiFamily,
    clientName: parsed.clientName,
    clientVersion: parsed.clientVersion,
    name: parsed.name,
    localRpcUrl: parsed.localRpcUrl,
    publicUrl: parsed.publicUrl,
    region: parsed.region,
  };
}

/** The written row, or the write's refusal as CONFLICT (a taken name) or NOT_FOUND. */
export function unwrapNodeWrite(result: NodeWriteResult): NodeRow {
  if (result.ok) return result.node;
  if (result.reason === "name-taken") {
    throw new AppError("CONFLICT", "Another node of this organization has that name.", { details: { field: "name" } });
  }
  throw new AppError("NOT_FOUND", "Node not found.");
}
