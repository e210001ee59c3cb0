import { isPlainObject, RpcError, type RpcDialect } from "../jsonrpc.js";
import type { ChainNetwork } from "../network.js";
import { deriveInt } from "../random.js";
import { assertError, ASSERT, castError, condenserArgs, fcError, namedArgs, toInt, toUint } from "./hive-args.js";
import {
  createAssetFormat,
  derivePublicKey,
  deriveSignature,
  formatHiveTime,
  HIVE_FLAVOR,
  hiveBlockId,
  STEEM_FLAVOR,
  type HiveFlavor,
} from "./hive-assets.js";
import {
  buildAccount,
  buildBlockTransactions,
  listAccountHistory,
  listRankedPosts,
  RANKED_SORTS,
  toNaiOperation,
} from "./hive-content.js";
import { enumVirtualOps, opsInBlock } from "./hive-vops.js";
import { witnessBookOf, type WitnessBook } from "./hive-witnesses.js";
import type { CallContext, JsonRpcFamily } from "./types.js";

/** Hive (hived 1.27) and Steem (steemd 0.23) JSON-RPC, including the `call` form. */

const KNOWN_APIS = new Set([
  "condenser_api",
  "database_api",
  "account_history_api",
  "block_api",
  "network_broadcast_api",
  "rc_api",
  "market_history_api",
  "account_by_key_api",
  "reputation_api",
  "transaction_status_api",
  "wallet_bridge_api",
  "bridge",
  "hive",
  "follow_api",
  "tags_api",
]);
/** Namespaces served by hivemind, whose JSON-RPC server words its errors differently from hived. */
const HIVEMIND_APIS = new Set(["bridge", "hive", "follow_api", "tags_api"]);

const CLIENT_VERSIONS: Record<HiveFlavor["chain"], string> = { hive: "1.27.11", steem: "0.23.1" };

export const hivedDialect: RpcDialect = {
  parseError: () => new RpcError(-32700, "Parse Error:Unexpected char"),
  invalidRequest: () => new RpcError(-32600, 'A member "jsonrpc" does not exist'),
  emptyBatch: () => new RpcError(-32600, "Invalid Request"),
  batchTooLarge: (limit) => new RpcError(-32600, `Batch size exceeds the limit of ${limit}`),
  methodNotFound: (method) => {
    const [api = "", name = ""] = method.split(".");
    if (HIVEMIND_APIS.has(api)) return new RpcError(-32601, "Method not found", method);
    if (!KNOWN_APIS.has(api)) {
      return fcError(
        -32601,
        ASSERT,
        "api_itr != _registered_apis.end(): Could not find API ${api}",
        { api },
        "json_rpc_plugin.cpp",
        "find_api_method",
      );
    }
    return fcError(
      -32601,
      ASSERT,
      "method_itr != api_itr->second.end(): Could not find method ${method}",
      { method: name },
      "json_rpc_plugin.cpp",
      "find_api_method",
    );
  },
  internalError: () => new RpcError(-32603, "Internal Error"),
  rateLimited: () => new RpcError(-32000, "Too Many Requests"),
};

export class HiveFamily implements JsonRpcFamily {
  readonly kind = "jsonrpc" as const;
  readonly dialect = hivedDialect;
  readonly subscriptionIdStyle = "alnum" as const;
  readonly flavor: HiveFlavor;
  readonly network: ChainNetwork;
  readonly libLagBlocks: number;
  readonly witnesses: WitnessBook;

  constructor(network: ChainNetwork, libLagBlocks?: number) {
    this.network = network;
    this.witnesses = witnessBookOf(network);
    this.flavor = network.info.chain === "steem" ? STEEM_FLAVOR : HIVE_FLAVOR;
    this.libLagBlocks = libLagBlocks ?? 15 + deriveInt(6, network.seed, network.slug, "lib-lag");
  }

  call(method: string, params: unknown, ctx: CallContext): unknown {
    if (method === "call") {
      if (
        !Array.isArray(params) ||
        params.length < 2 ||
        typeof params[0] !== "string" ||
        typeof params[1] !== "string"
      ) {
        throw assertError(
          "params.size() == 3 || params.size() == 2: call requires [api, method, args]",
          {},
          "call",
          "json_rpc_plugin.cpp",
        );
      }
      return this.call(`${params[0]}.${params[1]}`, params[2], ctx);
    }
    if (ctx.node.isMissing(method)) throw this.dialect.methodNotFound(method);
    const head = ctx.view.head;
    const chain = this.flavor.chain;
    switch (method) {
      case "condenser_api.get_dynamic_global_properties":
        condenserArgs(params, 0, method);
        return this.#globalProperties(head, "legacy");
      case "database_api.get_dynamic_global_properties":
        namedArgs(params, method);
        return this.#globalProperties(head, "nai");
      case "condenser_api.get_version":
      case "database_api.get_version":
        if (method.startsWith("condenser")) condenserArgs(params, 0, method);
        else namedArgs(params, method);
        return {
          blockchain_version: ctx.node.config.clientVersion ?? CLIENT_VERSIONS[chain],
          [`${chain}_revision`]: this.network.blockHex(0, "revision", 20).slice(2),
          fc_revision: this.network.blockHex(0, "fc-revision", 20).slice(2),
          chain_id: this.network.info.genesisName,
          ...(chain === "hive" ? { node_type: "mainnet" } : {}),
        };
      case "condenser_api.get_block": {
        const [num] = condenserArgs(params, 1, method);
        return this.#block(toUint(num, method), head);
      }
      case "condenser_api.get_accounts": {
        const [names] = condenserArgs(params, 1, method);
        if (!Array.isArray(names) || names.some((n) => typeof n !== "string"))
          throw castError("string_type", "array_type", method);
        return (names as string[]).flatMap((name, i) =>
          this.flavor.accounts.includes(name) ? [buildAccount(this.flavor, this.network, name, head, i)] : [],
        );
      }
      case "condenser_api.get_account_history": {
        const [account, start, limit] = condenserArgs(params, 3, method);
        return this.#history(String(account), toInt(start, method), toUint(limit, method), head, "legacy", method);
      }
      case "account_history_api.get_account_history": {
        const args = namedArgs(params, method);
        const history = this.#history(
          String(args.account ?? ""),
          toInt(args.start ?? -1, method),
          toUint(args.limit ?? 1000, method),
          head,
          "nai",
          method,
        );
        return { history };
      }
      case "condenser_api.get_witness_by_account": {
        const [account] = condenserArgs(params, 1, method);
        return this.witnesses.witness(String(account), head, "legacy");
      }
      case "database_api.find_witnesses": {
        const owners = namedArgs(params, method).owners ?? [];
        if (!Array.isArray(owners) || owners.some((o) => typeof o !== "string"))
          throw castError("string_type", "array_type", method);
        if (owners.length > 1000)
          throw assertError("owners.size() <= limit: owners too large", {}, method, "database_api.cpp");
        return {
          witnesses: (owners as string[]).flatMap((o) => this.witnesses.witness(o, head, "nai") ?? []),
        };
      }
      case "condenser_api.get_witnesses_by_vote": {
        const [from, limit] = condenserArgs(params, 2, method);
        const n = toUint(limit, method);
        if (n > 1000)
          throw assertError("limit <= 1000: limit of ${limit} is greater than maxmimum allowed", { limit: n }, method);
        return this.witnesses.byVote(String(from ?? ""), n, head);
      }
      case "condenser_api.get_witness_schedule":
        condenserArgs(params, 0, method);
        return this.witnesses.schedule(head, "legacy");
      case "database_api.get_witness_schedule":
        namedArgs(params, method);
        return this.witnesses.schedule(head, "nai");
      case "account_history_api.enum_virtual_ops":
        return enumVirtualOps(this, params, head);
      case "account_history_api.get_ops_in_block": {
        const args = namedArgs(params, method);
        const ops = opsInBlock(
          this,
          {
            blockNum: toUint(args.block_num ?? 0, method),
            onlyVirtual: args.only_virtual === true,
            includeReversible: args.include_reversible === true,
          },
          head,
          "nai",
        );
        return { ops };
      }
      case "condenser_api.get_ops_in_block": {
        // [block_num, only_virtual] (a third, include_reversible, is optional).
        const list = Array.isArray(params) && params.length === 3 ? params.slice(0, 2) : params;
        const [num, onlyVirtual] = condenserArgs(list, 2, method);
        const includeReversible = Array.isArray(params) && params[2] === true;
        return opsInBlock(
          this,
          { blockNum: toUint(num, method), onlyVirtual: onlyVirtual === true, includeReversible },
          head,
          "legacy",
        );
      }
      case "bridge.get_ranked_posts":
        return this.#rankedPosts(params, head);
      default:
        throw this.dialect.methodNotFound(method);
    }
  }

  openSubscription(): undefined {
    return undefined;
  }

  unsubscribeTarget(): undefined {
    return undefined;
  }

  renderNotification(): unknown {
    throw new Error("Hive has no subscriptions");
  }

  topicHeight(_topic: unknown, view: { head: number }): number {
    return view.head;
  }

  #globalProperties(head: number, style: "legacy" | "nai"): Record<string, unknown> {
    const a = createAssetFormat(this.flavor, style);
    const c = this.flavor.coreField;
    const d = this.flavor.dollarField;
    const now = this.network.timeOfHeight(head);
    const grown = BigInt(Math.max(0, head - this.network.anchorHeight + 50_000_000));
    const supply = 300_000_000_000n + grown * 2_900n;
    const dollarSupply = 30_000_000_000n + grown * 40n;
    const vestingFund = 150_000_000_000n + grown * 700n;
    const vestingShares = vestingFund * 1_820_000n;
    const hour = 3_600_000;
    const common: Record<string, unknown> = {
      id: 0,
      head_block_number: head,
      head_block_id: hiveBlockId(this.network, head),
      time: formatHiveTime(now),
      current_witness: this.flavor.witnesses[head % this.flavor.witnesses.length],
      total_pow: 514415,
      num_pow_witnesses: 172,
      virtual_supply: a.core(supply + dollarSupply * 4n),
      current_supply: a.core(supply),
      ...(this.flavor.chain === "steem" ? { confidential_supply: a.core(0n) } : {}),
      [`init_${d}_supply`]: a.dollar(0n),
      [`current_${d}_supply`]: a.dollar(dollarSupply),
      ...(this.flavor.chain === "steem" ? { confidential_sbd_supply: a.dollar(0n) } : {}),
      [`total_vesting_fund_${c}`]: a.core(vestingFund),
      total_vesting_shares: a.vests(vestingShares),
      [`total_reward_fund_${c}`]: a.core(0n),
      total_reward_shares2: "0",
      pending_rewarded_vesting_shares: a.vests(vestingShares / 1000n),
      [`pending_rewarded_vesting_${c}`]: a.core(vestingFund / 1000n),
      [`${d}_interest_rate`]: this.flavor.chain === "hive" ? 1500 : 0,
      [`${d}_print_rate`]: 10000,
      maximum_block_size: 65536,
      required_actions_partition_percent: 0,
      current_aslot: head + 1_274_000,
      recent_slots_filled: "340282366920938463463374607431768211455",
      participation_count: 128,
      last_irreversible_block_num: Math.max(1, head - this.libLagBlocks),
      vote_power_reserve_rate: 10,
      delegation_return_period: 432000,
      reverse_auction_seconds: 0,
      available_account_subsidies: 20_000_000 + deriveInt(2_000_000, this.network.seed, head, "subsidies"),
      [`${d}_stop_percent`]: this.flavor.chain === "hive" ? 1000 : 500,
      [`${d}_start_percent`]: this.flavor.chain === "hive" ? 900 : 200,
      next_maintenance_time: formatHiveTime(now - (now % hour) + hour),
      last_budget_time: formatHiveTime(now - (now % hour)),
    };
    if (this.flavor.chain === "steem") {
      return {
        ...common,
        content_reward_percent: 6500,
        vesting_reward_percent: 1500,
        sps_fund_percent: 1000,
        sps_interval_ledger: a.dollar(0n),
        downvote_pool_percent: 2500,
      };
    }
    return {
      ...common,
      next_daily_maintenance_time: formatHiveTime(now - (now % (24 * hour)) + 24 * hour),
      content_reward_percent: 6500,
      vesting_reward_percent: 1500,
      proposal_fund_percent: 1000,
      dhf_interval_ledger: a.dollar(BigInt(deriveInt(50_000_000, this.network.seed, head, "dhf"))),
      downvote_pool_percent: 2500,
      current_remove_threshold: 200,
      early_voting_seconds: 86400,
      mid_voting_seconds: 172800,
      max_consecutive_recurrent_transfers: 100,
      max_recurrent_transfer_end_date: 730,
      min_recurrent_transfers_recurrence: 24,
      max_open_recurrent_transfers: 255,
    };
  }

  #block(num: number, head: number): Record<string, unknown> | null {
    if (num < 1 || num > head) return null;
    const { transactions, ids } = buildBlockTransactions(this.flavor, this.network, num);
    return {
      previous: hiveBlockId(this.network, num - 1),
      timestamp: formatHiveTime(this.network.timeOfHeight(num)),
      witness: this.witnesses.producerOf(num),
      transaction_merkle_root: ids.length === 0 ? "0".repeat(40) : this.network.blockHex(num, "merkle", 20).slice(2),
      extensions: [],
      witness_signature: deriveSignature(this.network.seed, "block", num),
      transactions,
      block_id: hiveBlockId(this.network, num),
      signing_key: derivePublicKey(this.network.seed, this.witnesses.producerOf(num), "signing"),
      transaction_ids: ids,
    };
  }

  #history(
    account: string,
    start: number,
    limit: number,
    head: number,
    style: "legacy" | "nai",
    method: string,
  ): unknown[] {
    const file = style === "nai" ? "account_history_api.cpp" : "condenser_api.cpp";
    if (limit > 1000)
      throw assertError(
        "args.limit <= 1000: limit of ${limit} is greater than maxmimum allowed",
        { limit },
        method,
        file,
      );
    if (start >= 0 && start < limit - 1) {
      throw assertError(
        "args.start >= args.limit-1: start must be greater than or equal to limit-1 (start is 0-based index)",
        {},
        method,
        file,
      );
    }
    return listAccountHistory(this.flavor, this.network, account, head, start, limit).map((e) => {
      const trxId = this.network.blockHex(e.height, `trx-${account}`, 20).slice(2);
      const base = {
        trx_id: trxId,
        block: e.height,
        trx_in_block: 0,
        op_in_trx: 0,
        virtual_op: style === "nai" ? false : 0,
        timestamp: formatHiveTime(this.network.timeOfHeight(e.height)),
      };
      return style === "nai"
        ? [e.index, { ...base, op: toNaiOperation(this.flavor, e.op), operation_id: 0 }]
        : [e.index, { ...base, op: e.op }];
    });
  }

  #rankedPosts(params: unknown, head: number): unknown {
    const invalid = (data: string): RpcError => new RpcError(-32602, "Invalid parameters", data);
    const args = isPlainObject(params) ? params : Array.isArray(params) && params.length === 0 ? {} : null;
    if (!args) throw invalid("expected named parameters");
    const sort = args.sort;
    if (typeof sort !== "string") throw invalid("missing a required argument: 'sort'");
    if (!(RANKED_SORTS as readonly string[]).includes(sort))
      throw invalid(`Unsupported sort, valid sorts: ${RANKED_SORTS.join(", ")}`);
    const limit = args.limit === undefined ? 20 : Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1) throw invalid(`invalid limit ${String(args.limit)}`);
    if (limit > 100) throw invalid(`limit exceeds max (${limit} > 100)`);
    const tag = typeof args.tag === "string" ? args.tag : "";
    return listRankedPosts(this.flavor, this.network, head, sort as (typeof RANKED_SORTS)[number], tag, limit);
  }
}
