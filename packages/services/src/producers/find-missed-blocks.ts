import { findNetwork } from "@rpcpulse/domain";
import { callJsonRpc, type SafeHttpClient } from "@rpcpulse/prober";
import { z } from "zod";

/**
 * The exact block of a witness's miss. hived emits a producer_missed virtual operation (Hive HF26 and
 * later; Steem has none) in the block that follows a missed slot; the account-history plugin lists it
 * through account_history_api.enum_virtual_ops over a block range with the operation's filter bit
 * (https://developers.hive.io/apidefinitions/#account_history_api.enum_virtual_ops: block_range_end is
 * exclusive; filter producer_missed_operation = 0x1000000000; include_reversible so a miss in a block not
 * yet irreversible is seen at once; the operation reads
 * { "type": "producer_missed_operation", "value": { "producer": "<account>" } }).
 * A source without the plugin (method not found) or failing is skipped; null when none could say.
 */

/**
 * A miss's block(s) in words: "block #123", "blocks #123, #150", or, when only the range is known,
 * "a block in #120–#125" (a one-block range is exact too).
 */
export function describeMissBlocks(m: { blocks: number[] | null; fromBlock: number; toBlock: number }): string {
  if (m.blocks && m.blocks.length > 0)
    return `${m.blocks.length > 1 ? "blocks" : "block"} ${m.blocks.map((b) => `#${b}`).join(", ")}`;
  return m.fromBlock === m.toBlock ? `block #${m.toBlock}` : `a block in #${m.fromBlock}–#${m.toBlock}`;
}

export const PRODUCER_MISSED_FILTER = 0x10_0000_0000;
/** Pages of one range read at most (a node pages long ranges through next_block_range_begin). */
const MAX_PAGES = 10;

const EnumAnswer = z.object({
  ops: z.array(
    z
      .object({
        block: z.number().int().positive(),
        op: z.object({ type: z.string(), value: z.object({ producer: z.string().optional() }).loose() }).loose(),
      })
      .loose(),
  ),
  next_block_range_begin: z.number().int().nonnegative().optional(),
});

async function readRange(
  client: SafeHttpClient,
  url: string,
  q: { account: string; fromBlock: number; toBlock: number },
): Promise<number[] | null> {
  const blocks: number[] = [];
  const end = q.toBlock + 1;
  let begin = q.fromBlock;
  for (let page = 0; page < MAX_PAGES && begin < end; page++) {
    const reply = await callJsonRpc(client, url, "account_history_api.enum_virtual_ops", {
      block_range_begin: begin,
      block_range_end: end,
      filter: PRODUCER_MISSED_FILTER,
      include_reversible: true,
    });
    if (!reply.ok) return null;
    const answer = EnumAnswer.safeParse(reply.result);
    if (!answer.success) return null;
    for (const o of answer.data.ops) {
      if (o.op.type === "producer_missed_operation" && o.op.value.producer === q.account) blocks.push(o.block);
    }
    const next = answer.data.next_block_range_begin ?? end;
    if (next <= begin) break;
    begin = next;
  }
  return [...new Set(blocks)].sort((a, b) => a - b);
}

/** The blocks in [fromBlock, toBlock] whose slot `account` missed, from the first source that answers. */
export async function findMissedBlocks(
  client: SafeHttpClient,
  sources: readonly string[],
  q: { chain: "hive" | "steem"; account: string; fromBlock: number; toBlock: number },
): Promise<{ blocks: number[]; source: string } | null> {
  if (q.chain !== "hive" || q.toBlock < q.fromBlock) return null;
  for (const url of sources) {
    try {
      const blocks = await readRange(client, url, q);
      if (blocks !== null) return { blocks, source: url };
    } catch {
      // transport failure: the next source
    }
  }
  return null;
}

/**
 * The exact missed blocks of `account` in [fromBlock, toBlock] (a rise of total_missed between two
 * reads), asked before the miss row is written so the row carries them; null when no source could say.
 */
export async function lookupMissedBlocks(
  client: SafeHttpClient,
  sources: readonly string[],
  miss: { network: string; account: string; fromBlock: number; toBlock: number },
): Promise<number[] | null> {
  const chain = findNetwork(miss.network)?.chain;
  if (chain !== "hive" && chain !== "steem") return null;
  return (await findMissedBlocks(client, [...new Set(sources)], { chain, ...miss }))?.blocks ?? null;
}
