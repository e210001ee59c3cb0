import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CAPABILITY_FLIP_CHECKS,
  CAPABILITY_FORGET_CHECKS,
  settleCapabilityReport,
  type CapabilityReport,
  type Tri,
} from "../src/index.js";

const T0 = Date.UTC(2026, 2, 1);
const GROUPS = ["eth", "net", "web3", "debug", "trace", "txpool"] as const;

/** A raw check of an Ethereum endpoint; `n` is its sequence number (30 min apart). */
function check(
  n: number,
  patch: Partial<CapabilityReport> & { m?: Partial<Record<string, Tri>> } = {},
): CapabilityReport {
  const { m, ...rest } = patch;
  const methods: Record<string, Tri> = Object.fromEntries(GROUPS.map((g) => [g, g !== "trace"]));
  Object.assign(methods, m ?? {});
  return {
    url: "https://eth.example.org",
    family: "ethereum",
    network: "ethereum-mainnet",
    checkedAt: T0 + n * 1_800_000,
    headBlock: 20_000_000 + n * 150,
    archive: true,
    archiveBlock: 19_000_000,
    archiveDetail: null,
    methods,
    coverage: null,
    batch: true,
    logsMaxRange: 10_000,
    logsRangeLimited: false,
    websocket: {
      supported: true,
      url: "wss://eth.example.org",
      openMs: 20,
      callMs: 5,
      subscription: true,
      firstHeadMs: 900 + n,
      headDelayMs: 300,
      error: null,
    },
    cors: { allowed: true, status: 204, allowOrigin: "*", allowMethods: "POST", allowHeaders: "content-type" },
    clientVersion: "Geth/v1.14.0",
    errors: [],
    ...rest,
  };
}

/** Every method group unknown: what a check sees when the head call failed (503 after retries). */
const headFailed = (n: number): CapabilityReport =>
  check(n, {
    headBlock: null,
    archive: null,
    archiveBlock: null,
    archiveDetail: null,
    m: Object.fromEntries(GROUPS.map((g) => [g, null])),
    batch: null,
    logsMaxRange: null,
    logsRangeLimited: null,
    clientVersion: null,
    cors: { allowed: false, status: 503, allowOrigin: null, allowMethods: null, allowHeaders: null },
    errors: ["head: HTTP 503: no JSON-RPC answer to eth_getBlockByNumber"],
  });

function settleAll(reports: readonly CapabilityReport[], start: CapabilityReport | null = null): CapabilityReport {
  let settled = start;
  for (const r of reports) settled = settleCapabilityReport(settled, r);
  assert.ok(settled);
  return settled;
}

describe("settling capability checks", () => {
  it("a first check takes what it learnt; what it could not tell is unknown, never zero coverage", () => {
    const first = settleCapabilityReport(null, check(0, { m: { eth: null, web3: null } }));
    assert.equal(first.methods.eth, null);
    assert.equal(first.methods.net, true);
    assert.equal(first.coverage, 3 / 4, "net, debug, txpool of the four known; eth/web3 unknown, not false");
    const empty = settleCapabilityReport(null, headFailed(0));
    assert.deepEqual(Object.keys(empty.methods).sort(), [...GROUPS].sort(), "every group listed");
    assert.ok(Object.values(empty.methods).every((v) => v === null));
    assert.equal(empty.coverage, null, "nothing known: coverage unknown, not 0");
    assert.equal(empty.archive, null);
    assert.equal(empty.pending, undefined);
    // The next good check fills it in at once: unknown → known is learning, not a flip.
    const next = settleCapabilityReport(empty, check(1));
    assert.equal(next.archive, true);
    assert.equal(next.coverage, 5 / 6);
    assert.equal(next.pending, undefined);
  });

  it("one check with transient errors leaves the last good report standing", () => {
    const good = settleAll([check(0), check(1)]);
    const after503 = settleCapabilityReport(good, check(2, { m: { eth: null, web3: null }, batch: null }));
    assert.equal(after503.methods.eth, true);
    assert.equal(after503.methods.web3, true);
    assert.equal(after503.batch, true);
    assert.equal(after503.coverage, good.coverage);
    assert.deepEqual(after503.unknownChecks, { batch: 1, "methods.eth": 1, "methods.web3": 1 });
    const headDown = settleCapabilityReport(good, headFailed(2));
    assert.equal(headDown.coverage, good.coverage);
    assert.equal(headDown.archive, true);
    assert.equal(headDown.archiveBlock, 19_000_000);
    assert.equal(headDown.logsMaxRange, 10_000);
    assert.equal(headDown.clientVersion, "Geth/v1.14.0");
    assert.equal(headDown.cors.allowed, true, "a 503 to the preflight says nothing about CORS");
    assert.equal(headDown.checkedAt, T0 + 2 * 1_800_000, "the check time is this check's");
    assert.match(headDown.errors[0] ?? "", /503/, "the raw errors of this check are kept for the endpoint page");
  });

  it(`a capability flips only after ${CAPABILITY_FLIP_CHECKS} consecutive agreeing checks`, () => {
    let s = settleAll([check(0)]);
    for (let i = 1; i < CAPABILITY_FLIP_CHECKS; i++) {
      s = settleCapabilityReport(s, check(i, { archive: false, m: { debug: false } }));
      assert.equal(s.archive, true, `still archive after ${i} disagreeing checks`);
      assert.equal(s.methods.debug, true);
      assert.equal(s.coverage, 5 / 6);
      assert.deepEqual(s.pending?.archive, { value: "false", checks: i, since: T0 + 1_800_000 });
    }
    s = settleCapabilityReport(s, check(CAPABILITY_FLIP_CHECKS, { archive: false, m: { debug: false } }));
    assert.equal(s.archive, false);
    assert.equal(s.methods.debug, false);
    assert.equal(s.coverage, 4 / 6, "coverage moves with the settled groups");
    assert.equal(s.pending, undefined);
    // And back: the reverse flip needs the same agreement.
    s = settleCapabilityReport(s, check(10));
    assert.equal(s.archive, false);
    assert.equal(s.pending?.archive?.value, "true");
  });

  it("a disagreeing run broken by the settled value starts over; unknown checks neither count nor break it", () => {
    let s = settleAll([check(0)]);
    s = settleAll([check(1, { batch: false }), check(2, { batch: false }), check(3)], s);
    assert.equal(s.batch, true);
    assert.equal(s.pending, undefined, "the settled value seen again drops the pending flip");
    s = settleAll([check(4, { batch: false }), check(5, { batch: null }), check(6, { batch: false })], s);
    assert.equal(s.batch, true);
    assert.deepEqual(s.pending?.batch, { value: "false", checks: 2, since: T0 + 4 * 1_800_000 });
    s = settleCapabilityReport(s, check(7, { batch: false }));
    assert.equal(s.batch, false);
  });

  it("changing values need agreeing values: 10 000 then 1 000 then 10 000 keeps the getLogs range", () => {
    let s = settleAll([check(0)]);
    s = settleAll([check(1, { logsMaxRange: 1_000, logsRangeLimited: true }), check(2)], s);
    assert.equal(s.logsMaxRange, 10_000);
    s = settleAll(
      [1, 2, 3].map((i) => check(10 + i, { logsMaxRange: 1_000, logsRangeLimited: true })),
      s,
    );
    assert.deepEqual([s.logsMaxRange, s.logsRangeLimited], [1_000, true]);
  });

  it("a confirmed value carries this check's measurements; a held one carries the old ones", () => {
    const s1 = settleAll([check(0), check(1)]);
    assert.equal(s1.websocket.firstHeadMs, 901);
    const down = { ...check(2).websocket, supported: false, firstHeadMs: null, error: "HTTP 503" };
    const s2 = settleCapabilityReport(s1, check(2, { websocket: down }));
    assert.equal(s2.websocket.supported, true);
    assert.equal(s2.websocket.firstHeadMs, 901);
  });

  it(`a value nobody could confirm for ${CAPABILITY_FORGET_CHECKS} checks becomes unknown`, () => {
    let s = settleAll([check(0)]);
    for (let i = 1; i < CAPABILITY_FORGET_CHECKS; i++) s = settleCapabilityReport(s, headFailed(i));
    assert.equal(s.archive, true);
    assert.equal(s.unknownChecks?.archive, CAPABILITY_FORGET_CHECKS - 1);
    s = settleCapabilityReport(s, headFailed(CAPABILITY_FORGET_CHECKS));
    assert.equal(s.archive, null);
    assert.equal(s.coverage, null);
    assert.equal(s.unknownChecks, undefined);
  });
});
