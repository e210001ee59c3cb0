import { AppError } from "@rpcpulse/config";
import { countProducers, insertProducer, PRODUCER_ACCOUNT_PATTERN } from "@rpcpulse/db/producers";
import { findNetwork } from "@rpcpulse/domain";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import { createValidatorProducer } from "./create-validator-producer.js";
import { listProducerViews } from "./list-producer-views.js";
import { listValidatorViews } from "./list-validator-views.js";
import type { ProducerDeps, ProducerView } from "./producer-view.js";
import type { ValidatorView } from "./validator-view.js";

export const MAX_PRODUCERS_PER_ORG = 50;

export const RegisterProducerInput = z
  .object({
    network: z.string().trim().min(1).max(64),
    /** A Hive/Steem witness account, or a Polkadot/Kusama validator stash (SS58) on those networks. */
    account: z.string().trim().min(1).max(64),
  })
  .strict();
const WitnessAccount = z
  .string()
  .toLowerCase()
  .regex(PRODUCER_ACCOUNT_PATTERN, "A Hive/Steem account name: 3-16 of a-z, 0-9, '.', '-'.");
export type RegisterProducerInput = z.input<typeof RegisterProducerInput>;

export async function registerProducer(
  deps: ProducerDeps,
  ctx: ServiceContext,
  input: unknown,
): Promise<ProducerView | ValidatorView> {
  requireRole(ctx, "admin");
  const parsed = RegisterProducerInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("VALIDATION", issue?.message ?? "Invalid producer.", {
      details: { field: String(issue?.path[0] ?? "account") },
    });
  }
  const { network } = parsed.data;
  const info = findNetwork(network);
  if (info?.chain === "polkadot") {
    // Validators (Polkadot, Kusama): the stash is an SS58 address, case-sensitive.
    const id = await createValidatorProducer(deps, ctx, { network, stash: parsed.data.account });
    const [view] = await listValidatorViews(deps, ctx, { ids: [id] });
    if (!view) throw new AppError("INTERNAL", "The validator just registered is missing.");
    return view;
  }
  if (!info || (info.chain !== "hive" && info.chain !== "steem")) {
    throw new AppError(
      "VALIDATION",
      "Witnesses are watched on Hive and Steem networks, validators on Polkadot and Kusama.",
      {
        details: { field: "network" },
      },
    );
  }
  const witness = WitnessAccount.safeParse(parsed.data.account);
  if (!witness.success) {
    throw new AppError("VALIDATION", witness.error.issues[0]?.message ?? "Invalid account.", {
      details: { field: "account" },
    });
  }
  const account = witness.data;
  if ((await countProducers(deps.sql, ctx.organizationId)) >= MAX_PRODUCERS_PER_ORG) {
    throw new AppError("VALIDATION", `At most ${MAX_PRODUCERS_PER_ORG} producers per organization.`);
  }
  const row = await insertProducer(deps.sql, { organizationId: ctx.organizationId, network, account });
  if (!row) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  const [view] = await listProducerViews(deps, ctx, { ids: [row.id] });
  if (!view) throw new AppError("INTERNAL", "The producer just registered is missing.");
  return view;
}
