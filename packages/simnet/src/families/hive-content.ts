import type { ChainNetwork } from "../network.js";
import { deriveBytes, deriveHex, deriveInt } from "../random.js";
import {
  createAssetFormat,
  derivePublicKey,
  deriveSignature,
  formatHiveTime,
  formatLegacy,
  hiveBlockId,
  type HiveFlavor,
} from "./hive-assets.js";

/** Deterministic chain content of a Hive/Steem network: transactions, accounts, history, posts. */

type Op = [string, Record<string, unknown>];

function opAt(flavor: HiveFlavor, network: ChainNetwork, height: number, index: number, actorHint?: string): Op {
  const names = flavor.accounts;
  const pick = (salt: string): string => names[deriveInt(names.length, network.seed, height, index, salt)] ?? names[0]!;
  const actor = actorHint ?? pick("actor");
  const kind = deriveInt(3, network.seed, height, index, "kind");
  if (kind === 0) {
    return [
      "vote",
      {
        voter: actor,
        author: pick("author"),
        permlink: `post-${deriveHex(4, height, index).slice(2)}`,
        weight: 10000 - deriveInt(8, height, index) * 1000,
      },
    ];
  }
  if (kind === 1) {
    const amount = BigInt(1 + deriveInt(250_000, network.seed, height, index, "amount"));
    return ["transfer", { from: actor, to: pick("to"), amount: formatLegacy(amount, 3, flavor.core), memo: "" }];
  }
  return [
    "custom_json",
    {
      required_auths: [],
      required_posting_auths: [actor],
      id: "follow",
      json: JSON.stringify(["follow", { follower: actor, following: pick("following"), what: ["blog"] }]),
    },
  ];
}

/** Transactions of one block, in condenser_api form, with their ids. */
export function buildBlockTransactions(
  flavor: HiveFlavor,
  network: ChainNetwork,
  height: number,
): { transactions: Record<string, unknown>[]; ids: string[] } {
  const count = deriveInt(5, network.seed, height, "tx-count");
  const time = network.timeOfHeight(height);
  const refHeight = Math.max(1, height - 3);
  const refId = Buffer.from(hiveBlockId(network, refHeight), "hex");
  const transactions: Record<string, unknown>[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = deriveBytes(20, network.seed, network.slug, "trx", height, i).toString("hex");
    ids.push(id);
    transactions.push({
      ref_block_num: refHeight & 0xffff,
      ref_block_prefix: refId.readUInt32LE(4),
      expiration: formatHiveTime(time + 57_000),
      operations: [opAt(flavor, network, height, i)],
      extensions: [],
      signatures: [deriveSignature(network.seed, "trx", height, i)],
      transaction_id: id,
      block_num: height,
      transaction_num: i,
    });
  }
  return { transactions, ids };
}

/** First block an account exists at and how often it acts (blocks between operations). */
function accountRhythm(network: ChainNetwork, name: string): { created: number; period: number } {
  const created = Math.max(1, network.anchorHeight - 5_000_000 - deriveInt(40_000_000, network.seed, name, "created"));
  return { created, period: 40 + deriveInt(400, network.seed, name, "period") };
}

function historyCount(network: ChainNetwork, name: string, head: number): number {
  const { created, period } = accountRhythm(network, name);
  return head < created ? 0 : Math.floor((head - created) / period) + 1;
}

/** condenser_api.get_accounts entry for a known account name. */
export function buildAccount(
  flavor: HiveFlavor,
  network: ChainNetwork,
  name: string,
  head: number,
  index: number,
): Record<string, unknown> {
  const a = createAssetFormat(flavor, "legacy");
  const d = flavor.dollarField;
  const c = flavor.coreField;
  const now = network.timeOfHeight(head);
  const { created } = accountRhythm(network, name);
  const big = (salt: string, max: number): bigint => BigInt(deriveInt(max, network.seed, name, salt));
  const vests = big("vests", 2_000_000_000) * 1_000_000n + big("vests-frac", 1_000_000);
  const auth = (role: string): Record<string, unknown> => ({
    weight_threshold: 1,
    account_auths: [],
    key_auths: [[derivePublicKey(network.seed, name, role), 1]],
  });
  const mana = (vests * BigInt(8000 + deriveInt(2000, network.seed, name, head, "mana"))) / 10000n;
  const lastVote = formatHiveTime(now - deriveInt(86_400, network.seed, name, "vote") * 1000);
  return {
    id: 1000 + index + deriveInt(1_500_000, network.seed, name, "id"),
    name,
    owner: auth("owner"),
    active: auth("active"),
    posting: auth("posting"),
    memo_key: derivePublicKey(network.seed, name, "memo"),
    json_metadata: "",
    posting_json_metadata: JSON.stringify({ profile: { name, about: `${name} on ${flavor.chain}`, version: 2 } }),
    proxy: "",
    previous_owner_update: "1970-01-01T00:00:00",
    last_owner_update: "1970-01-01T00:00:00",
    last_account_update: formatHiveTime(now - 86_400_000 * (1 + deriveInt(300, network.seed, name, "upd"))),
    created: formatHiveTime(network.timeOfHeight(created)),
    mined: false,
    recovery_account: flavor.chain === "hive" ? "hive.recovery" : "steem",
    last_account_recovery: "1970-01-01T00:00:00",
    reset_account: "null",
    comment_count: 0,
    lifetime_vote_count: 0,
    post_count: 100 + deriveInt(20_000, network.seed, name, "posts"),
    can_vote: true,
    voting_manabar: { current_mana: mana.toString(), last_update_time: Math.floor(now / 1000) - 60 },
    downvote_manabar: { current_mana: (mana / 4n).toString(), last_update_time: Math.floor(now / 1000) - 60 },
    voting_power: 0,
    balance: a.core(big("balance", 50_000_000)),
    savings_balance: a.core(big("savings", 5_000_000)),
    [`${d}_balance`]: a.dollar(big("dollar", 5_000_000)),
    [`${d}_seconds`]: "0",
    [`${d}_seconds_last_update`]: formatHiveTime(now - 3_600_000),
    [`${d}_last_interest_payment`]: formatHiveTime(now - 86_400_000 * 20),
    [`savings_${d}_balance`]: a.dollar(big("savings-dollar", 2_000_000)),
    [`savings_${d}_seconds`]: "0",
    [`savings_${d}_seconds_last_update`]: formatHiveTime(now - 86_400_000),
    [`savings_${d}_last_interest_payment`]: formatHiveTime(now - 86_400_000 * 20),
    savings_withdraw_requests: 0,
    [`reward_${d}_balance`]: a.dollar(0n),
    [`reward_${c}_balance`]: a.core(0n),
    reward_vesting_balance: a.vests(0n),
    [`reward_vesting_${c}`]: a.core(0n),
    vesting_shares: a.vests(vests),
    delegated_vesting_shares: a.vests(vests / 10n),
    received_vesting_shares: a.vests(vests / 20n),
    vesting_withdraw_rate: a.vests(0n),
    post_voting_power: a.vests(vests - vests / 10n + vests / 20n),
    next_vesting_withdrawal: "1969-12-31T23:59:59",
    withdrawn: 0,
    to_withdraw: 0,
    withdraw_routes: 0,
    pending_transfers: 0,
    curation_rewards: deriveInt(100_000_000, network.seed, name, "cur"),
    posting_rewards: deriveInt(100_000_000, network.seed, name, "post"),
    proxied_vsf_votes: ["0", "0", "0", "0"],
    witnesses_voted_for: deriveInt(31, network.seed, name, "wit"),
    last_post: lastVote,
    last_root_post: lastVote,
    last_vote_time: lastVote,
    post_bandwidth: 0,
    pending_claimed_accounts: deriveInt(500, network.seed, name, "claimed"),
    ...(flavor.chain === "hive"
      ? {
          governance_vote_expiration_ts: formatHiveTime(now + 86_400_000 * 300),
          delayed_votes: [],
          open_recurrent_transfers: 0,
        }
      : {}),
    vesting_balance: a.core(0n),
    reputation: String(BigInt(deriveInt(2_000_000_000, network.seed, name, "rep")) * 100_000n),
    transfer_history: [],
    market_history: [],
    post_history: [],
    vote_history: [],
    other_history: [],
    witness_votes: flavor.witnesses.slice(0, deriveInt(20, network.seed, name, "votes")),
    tags_usage: [],
    guest_bloggers: [],
  };
}

export interface HistoryEntry {
  index: number;
  height: number;
  op: Op;
}

/**
 * Entries [start-limit+1 .. start] of an account's history (start = -1: the newest), oldest first,
 * the order hived returns them in.
 */
export function listAccountHistory(
  flavor: HiveFlavor,
  network: ChainNetwork,
  name: string,
  head: number,
  start: number,
  limit: number,
): HistoryEntry[] {
  if (!flavor.accounts.includes(name)) return [];
  const count = historyCount(network, name, head);
  if (count === 0) return [];
  const last = start < 0 ? count - 1 : Math.min(start, count - 1);
  const first = Math.max(0, last - limit + 1);
  const { created, period } = accountRhythm(network, name);
  const out: HistoryEntry[] = [];
  for (let i = first; i <= last; i += 1) {
    const height = created + i * period;
    out.push({ index: i, height, op: opAt(flavor, network, height, 0, name) });
  }
  return out;
}

/** Operation name and value in the account_history_api form ("transfer_operation", NAI assets). */
export function toNaiOperation(flavor: HiveFlavor, op: Op): { type: string; value: Record<string, unknown> } {
  const nai = createAssetFormat(flavor, "nai");
  const value = { ...op[1] };
  if (typeof value.amount === "string") {
    const [num] = value.amount.split(" ");
    value.amount = nai.core(BigInt((num ?? "0").replace(".", "")));
  }
  return { type: `${op[0]}_operation`, value };
}

export const RANKED_SORTS = ["trending", "hot", "created", "promoted", "payout", "payout_comments", "muted"] as const;

const COMMUNITIES: Record<HiveFlavor["chain"], Array<[string, string]>> = {
  hive: [
    ["hive-174578", "OCD"],
    ["hive-167922", "LeoFinance"],
    ["hive-13323", "Splinterlands"],
    ["hive-163772", "Photography Lovers"],
  ],
  steem: [
    ["hive-101145", "SCT.암호화폐.Crypto"],
    ["hive-180932", "Steem Korea"],
    ["hive-185836", "WORLD OF XPILAR"],
  ],
};

const POST_EVERY_BLOCKS = 20;

/** bridge.get_ranked_posts: the newest 300 root posts, filtered and ordered like hivemind. */
export function listRankedPosts(
  flavor: HiveFlavor,
  network: ChainNetwork,
  head: number,
  sort: (typeof RANKED_SORTS)[number],
  tag: string,
  limit: number,
): Record<string, unknown>[] {
  const dollar = (a: bigint): string => formatLegacy(a, 3, flavor.dollar);
  const newest = Math.floor(head / POST_EVERY_BLOCKS);
  const posts: Array<Record<string, unknown> & { _score: number }> = [];
  for (let k = newest; k > newest - 300; k -= 1) {
    const height = k * POST_EVERY_BLOCKS;
    const author = flavor.accounts[deriveInt(flavor.accounts.length, network.seed, "post", k)] ?? flavor.accounts[0]!;
    const community =
      COMMUNITIES[flavor.chain][deriveInt(COMMUNITIES[flavor.chain].length, network.seed, "community", k)]!;
    if (tag && tag !== community[0]) continue;
    const created = network.timeOfHeight(height);
    const payoutMilli = BigInt(deriveInt(80_000, network.seed, "payout", k));
    const votes = 1 + deriveInt(400, network.seed, "votes", k);
    const ageHours = (network.timeOfHeight(head) - created) / 3_600_000;
    const score =
      sort === "created"
        ? created
        : sort === "hot"
          ? votes / Math.pow(ageHours + 2, 1.8)
          : sort === "payout"
            ? Number(payoutMilli)
            : votes * Number(payoutMilli);
    if (sort === "muted" || sort === "promoted" || sort === "payout_comments") continue;
    const permlink = `${author.replace(/\./g, "-")}-${deriveHex(4, network.seed, "permlink", k).slice(2)}`;
    posts.push({
      _score: score,
      post_id: 100_000_000 + k,
      author,
      permlink,
      category: community[0],
      title: `Update ${k % 1000} from ${author}`,
      body: `Notes written at block ${height}.`,
      json_metadata: {
        tags: [community[0], flavor.chain],
        app: flavor.apps[k % flavor.apps.length],
        format: "markdown",
      },
      created: formatHiveTime(created),
      updated: formatHiveTime(created),
      depth: 0,
      children: deriveInt(40, network.seed, "children", k),
      net_rshares: deriveInt(2_000_000_000, network.seed, "rshares", k) * 1000,
      is_paidout: false,
      payout_at: formatHiveTime(created + 7 * 86_400_000),
      payout: Number(payoutMilli) / 1000,
      pending_payout_value: dollar(payoutMilli),
      author_payout_value: dollar(0n),
      curator_payout_value: dollar(0n),
      promoted: dollar(0n),
      replies: [],
      author_reputation: 25 + deriveInt(5000, network.seed, author, "rep") / 100,
      stats: { hide: false, gray: false, total_votes: votes, flag_weight: 0 },
      url: `/${community[0]}/@${author}/${permlink}`,
      beneficiaries: [],
      max_accepted_payout: `1000000.000 ${flavor.dollar}`,
      [flavor.chain === "hive" ? "percent_hbd" : "percent_steem_dollars"]: 10000,
      active_votes: Array.from({ length: Math.min(votes, 5) }, (_, i) => ({
        voter: flavor.accounts[(k + i) % flavor.accounts.length],
        rshares: deriveInt(1_000_000_000, network.seed, "vote", k, i),
      })),
      author_role: "guest",
      author_title: "",
      community: community[0],
      community_title: community[1],
    });
  }
  posts.sort((x, y) => y._score - x._score);
  return posts.slice(0, limit).map(({ _score: _unused, ...post }) => post);
}
