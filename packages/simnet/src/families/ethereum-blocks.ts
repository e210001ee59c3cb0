import type { ChainNetwork } from "../network.js";
import { deriveBytes, deriveHex, deriveInt } from "../random.js";

/** Deterministic Ethereum blocks, transactions, logs and traces (post-Prague shapes). */

export const EMPTY_UNCLES_HASH = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const TOKENS = ["0xdac17f958d2ee523a2206206994597c13d831ec7", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"];
const BUILDERS: Array<[string, string]> = [
  ["0x95222290dd7278aa3ddd389cc1e1d165cc4bafe5", "beaverbuild.org"],
  ["0x4838b106fce9647bdf1e7877bf73ce8b0bad5f97", "Titan (titanbuilder.xyz)"],
  ["0x1f9090aae28b8a3dceadf281b0f12828e676c326", "rsync-builder.xyz"],
  ["0xdadb0d80178819f2319190d340ce9a924f783711", "BuilderNet"],
];
const GAS_LIMIT = 45_000_000n;

export const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

export interface EthTx {
  index: number;
  hash: string;
  from: string;
  to: string;
  value: bigint;
  input: string;
  gas: bigint;
  gasUsed: bigint;
  nonce: number;
  maxFee: bigint;
  maxPriorityFee: bigint;
  token: boolean;
}

export interface EthLog {
  address: string;
  topics: string[];
  data: string;
  txIndex: number;
  logIndex: number;
}

export interface BlockContent {
  txs: EthTx[];
  logs: EthLog[];
  baseFee: bigint;
  gasUsed: bigint;
}

const pad32 = (hexNoPrefix: string): string => hexNoPrefix.padStart(64, "0");

export function address(...parts: Array<string | number>): string {
  return deriveHex(20, "address", ...parts);
}

export function baseFeeOf(network: ChainNetwork, height: number): bigint {
  return 200_000_000n + BigInt(deriveInt(3_000_000_000, network.seed, network.slug, "basefee", height));
}

/** Transactions (EIP-1559 transfers and ERC-20 transfers) and their logs. */
export function buildContent(network: ChainNetwork, height: number): BlockContent {
  const count = 3 + deriveInt(10, network.seed, network.slug, "txcount", height);
  const baseFee = baseFeeOf(network, height);
  const txs: EthTx[] = [];
  const logs: EthLog[] = [];
  let gasUsed = 0n;
  for (let i = 0; i < count; i += 1) {
    const from = address(network.seed, "from", height, i);
    const recipient = address(network.seed, "to", height, i);
    const token = deriveInt(2, network.seed, "kind", height, i) === 1;
    const amount = BigInt(`0x${deriveBytes(8, network.seed, "amount", height, i).toString("hex")}`);
    const to = token ? TOKENS[i % TOKENS.length]! : recipient;
    const input = token ? `0xa9059cbb${pad32(recipient.slice(2))}${pad32(amount.toString(16))}` : "0x";
    const used = token ? 45_000n + BigInt(deriveInt(20_000, network.seed, "gas", height, i)) : 21_000n;
    const tip = 1_000_000n + BigInt(deriveInt(2_000_000_000, network.seed, "tip", height, i));
    txs.push({
      index: i,
      hash: deriveHex(32, network.seed, network.slug, "tx", height, i),
      from,
      to,
      value: token ? 0n : amount,
      input,
      gas: token ? used + 20_000n : 21_000n,
      gasUsed: used,
      nonce: deriveInt(5000, network.seed, "nonce", height, i),
      maxFee: baseFee * 2n + tip,
      maxPriorityFee: tip,
      token,
    });
    if (token) {
      logs.push({
        address: to,
        topics: [TRANSFER_TOPIC, `0x${pad32(from.slice(2))}`, `0x${pad32(recipient.slice(2))}`],
        data: `0x${pad32(amount.toString(16))}`,
        txIndex: i,
        logIndex: logs.length,
      });
    }
    gasUsed += used;
  }
  return { txs, logs, baseFee, gasUsed };
}

export interface EthBlockOptions {
  full: boolean;
  /** Nethermind still reports totalDifficulty; geth dropped it. */
  totalDifficulty: boolean;
}

function headerFields(network: ChainNetwork, height: number, content: BlockContent): Record<string, unknown> {
  const [miner, extra] = BUILDERS[deriveInt(BUILDERS.length, network.seed, "builder", height)]!;
  const withdrawalsEmpty = false;
  return {
    parentHash: network.blockHashHex(height - 1),
    sha3Uncles: EMPTY_UNCLES_HASH,
    miner,
    stateRoot: network.blockHex(height, "state"),
    transactionsRoot: network.blockHex(height, "txroot"),
    receiptsRoot: network.blockHex(height, "receipts"),
    logsBloom: network.blockHex(height, "bloom", 256),
    difficulty: "0x0",
    number: hex(height),
    gasLimit: hex(GAS_LIMIT),
    gasUsed: hex(content.gasUsed),
    timestamp: hex(Math.floor(network.timeOfHeight(height) / 1000)),
    extraData: `0x${Buffer.from(extra).toString("hex")}`,
    mixHash: network.blockHex(height, "randao"),
    nonce: "0x0000000000000000",
    baseFeePerGas: hex(content.baseFee),
    withdrawalsRoot: withdrawalsEmpty ? EMPTY_UNCLES_HASH : network.blockHex(height, "withdrawals"),
    blobGasUsed: hex(131072 * deriveInt(7, network.seed, "blobs", height)),
    excessBlobGas: hex(deriveInt(80_000_000, network.seed, "excessblob", height)),
    parentBeaconBlockRoot: network.blockHex(height, "beaconroot"),
    requestsHash: "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    hash: network.blockHashHex(height),
  };
}

/** newHeads notification payload: the header only, as geth marshals types.Header. */
export function buildEthHeader(network: ChainNetwork, height: number): Record<string, unknown> {
  return headerFields(network, height, buildContent(network, height));
}

export function formatTransaction(
  network: ChainNetwork,
  height: number,
  tx: EthTx,
  baseFee: bigint,
): Record<string, unknown> {
  const chainId = network.info.chainId ?? 1;
  const effective = baseFee + tx.maxPriorityFee < tx.maxFee ? baseFee + tx.maxPriorityFee : tx.maxFee;
  const parity = deriveInt(2, network.seed, "parity", height, tx.index);
  return {
    blockHash: network.blockHashHex(height),
    blockNumber: hex(height),
    from: tx.from,
    gas: hex(tx.gas),
    gasPrice: hex(effective),
    maxFeePerGas: hex(tx.maxFee),
    maxPriorityFeePerGas: hex(tx.maxPriorityFee),
    hash: tx.hash,
    input: tx.input,
    nonce: hex(tx.nonce),
    to: tx.to,
    transactionIndex: hex(tx.index),
    value: hex(tx.value),
    type: "0x2",
    accessList: [],
    chainId: hex(chainId),
    v: hex(parity),
    r: deriveHex(32, network.seed, "r", height, tx.index),
    s: deriveHex(32, network.seed, "s", height, tx.index),
    yParity: hex(parity),
  };
}

export function buildEthBlock(
  network: ChainNetwork,
  height: number,
  options: EthBlockOptions,
): Record<string, unknown> {
  const content = buildContent(network, height);
  const transactions = options.full
    ? content.txs.map((tx) => formatTransaction(network, height, tx, content.baseFee))
    : content.txs.map((tx) => tx.hash);
  const withdrawals = Array.from({ length: 16 }, (_, i) => ({
    index: hex(100_000_000 + (height - network.anchorHeight) * 16 + i),
    validatorIndex: hex(deriveInt(1_900_000, network.seed, "validator", height, i)),
    address: address(network.seed, "withdrawal", deriveInt(50_000, network.seed, "wa", height, i)),
    amount: hex(17_000_000 + deriveInt(3_000_000, network.seed, "wamount", height, i)),
  }));
  const size = 620 + content.txs.length * (options.full ? 180 : 110) + withdrawals.length * 40;
  const header = headerFields(network, height, content);
  const { hash, ...rest } = header;
  return {
    ...rest,
    hash,
    size: hex(size),
    ...(options.totalDifficulty ? { totalDifficulty: "0xc70d815d562d3cfa955" } : {}),
    transactions,
    uncles: [],
    withdrawals,
  };
}

export function formatLog(network: ChainNetwork, height: number, log: EthLog, txHash: string): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: hex(height),
    blockHash: network.blockHashHex(height),
    blockTimestamp: hex(Math.floor(network.timeOfHeight(height) / 1000)),
    transactionHash: txHash,
    transactionIndex: hex(log.txIndex),
    logIndex: hex(log.logIndex),
    removed: false,
  };
}

/** debug_traceBlockByNumber with callTracer: one frame per transaction. */
export function buildCallTraces(network: ChainNetwork, height: number): Array<Record<string, unknown>> {
  const { txs } = buildContent(network, height);
  return txs.map((tx) => ({
    txHash: tx.hash,
    result: {
      from: tx.from,
      gas: hex(tx.gas),
      gasUsed: hex(tx.gasUsed),
      to: tx.to,
      input: tx.input,
      ...(tx.token ? { output: `0x${"1".padStart(64, "0")}` } : {}),
      value: hex(tx.value),
      type: "CALL",
    },
  }));
}

/** trace_block (OpenEthereum/Nethermind/Erigon format): one call trace per transaction. */
export function buildParityTraces(network: ChainNetwork, height: number): Array<Record<string, unknown>> {
  const { txs } = buildContent(network, height);
  return txs.map((tx) => ({
    action: {
      from: tx.from,
      callType: "call",
      gas: hex(tx.gas - 21_000n),
      input: tx.input,
      to: tx.to,
      value: hex(tx.value),
    },
    blockHash: network.blockHashHex(height),
    blockNumber: height,
    result: { gasUsed: hex(tx.gasUsed - 21_000n), output: tx.token ? `0x${"1".padStart(64, "0")}` : "0x" },
    subtraces: 0,
    traceAddress: [],
    transactionHash: tx.hash,
    transactionPosition: tx.index,
    type: "call",
  }));
}

/** Balance of an address at a block: a stable amount plus a drift per block. */
export function balanceAt(network: ChainNetwork, addr: string, height: number): bigint {
  const base = BigInt(`0x${deriveBytes(9, network.seed, "balance", addr.toLowerCase()).toString("hex")}`);
  return base + BigInt(height % 100_000) * 1_000_000_000_000n;
}
