import { AppError } from "@rpcpulse/config";
import { checkPlausibleHead, findNetwork, plausibleHeadCeiling } from "@rpcpulse/domain";

/**
 * Wire plausibility of a batch's chain heads: every sample's head and finalized block must lie in
 * the network's plausible range at the sample's time (one block per block interval since genesis,
 * plus slack; see plausibleHeadCeiling), and finalized may not pass head. The first sample that
 * fails refuses the whole batch with a reason naming the sample and the field; nothing is clamped
 * and nothing of the batch is queued. Networks outside the catalogue are not checked.
 */
export function checkBatchHeads(
  networkSlug: string,
  columns: { time: number[]; headBlock: (number | null)[]; finalizedBlock: (number | null)[] },
  clockSkewMs: number,
): void {
  const network = findNetwork(networkSlug);
  if (!network) return;
  for (let i = 0; i < columns.time.length; i++) {
    const head = columns.headBlock[i] ?? null;
    const finalized = columns.finalizedBlock[i] ?? null;
    if (head === null && finalized === null) continue;
    // Judged at the sample's time on the server's clock (the agent's skew removed).
    const atMs = (columns.time[i] as number) - clockSkewMs;
    const headProblem = checkPlausibleHead(network, atMs, head, null);
    const finalizedProblem = headProblem ? null : checkPlausibleHead(network, atMs, null, finalized);
    const orderProblem = headProblem || finalizedProblem ? null : checkPlausibleHead(network, atMs, head, finalized);
    const problem = headProblem ?? finalizedProblem ?? orderProblem;
    if (!problem) continue;
    const field = `samples.${i}.chain.${headProblem ? "headBlock" : "finalizedBlock"}`;
    throw new AppError(
      "VALIDATION",
      `Implausible ${field}: ${problem}. The batch was refused and nothing of it was stored; check that the node is enrolled on the right network.`,
      {
        details: {
          reason: "implausible_head",
          sample: i,
          field,
          value: headProblem ? head : finalized,
          network: network.slug,
          ceiling: plausibleHeadCeiling(network, atMs),
        },
      },
    );
  }
}
