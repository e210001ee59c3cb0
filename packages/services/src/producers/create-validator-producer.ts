import { AppError } from "@rpcpulse/config";
import { countProducers, insertProducer } from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import type { ServiceContext } from "../context.js";
import { checkSs58Address } from "./parse-validator.js";

export const MAX_VALIDATOR_PRODUCERS = 50;

/** Validate and store a stash (called by registerProducer for Polkadot/Kusama networks). */
export async function createValidatorProducer(
  deps: { sql: SqlClient },
  ctx: ServiceContext,
  input: { network: string; stash: string },
): Promise<string> {
  const problem = checkSs58Address(input.stash, input.network);
  if (problem) throw new AppError("VALIDATION", problem, { details: { field: "account" } });
  if ((await countProducers(deps.sql, ctx.organizationId)) >= MAX_VALIDATOR_PRODUCERS) {
    throw new AppError("VALIDATION", `At most ${MAX_VALIDATOR_PRODUCERS} producers per organization.`);
  }
  const row = await insertProducer(deps.sql, {
    organizationId: ctx.organizationId,
    network: input.network,
    kind: "validator",
    account: input.stash,
  });
  if (!row) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  return row.id;
}
