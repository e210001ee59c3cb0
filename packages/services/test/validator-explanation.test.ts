// The advisor's explanation of a validator's trouble (pure): its newest offline report, leaving the
// active set or low era points, read against the organization's own nodes on the network and whether
// they hold the session keys; what to do (rotate keys on a synced backup), never done by RPC Pulse.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NodeAroundMiss, ValidatorLatest, ValidatorStatusRow } from "@rpcpulse/db/producers";
import {
  explainValidatorTrouble,
  pickValidatorTrigger,
  validatorEvidenceWindow,
  type ValidatorTrigger,
} from "@rpcpulse/services/producers";

const AT = new Date("2026-03-02T10:00:00Z");
const STASH = "14BPkWYgSc1VypBu8AN3ALyjxGDi4wrQ1mebRssoXQk7ri6y";

function node(name: string, over: Partial<NodeAroundMiss> = {}): NodeAroundMiss {
  return {
    nodeId: name,
    name,
    apiFamily: "substrate",
    samples: 30,
    maxLagBlocks: 0,
    maxHeadAgeMs: 6_000,
    listenOverflows: 0,
    minMemAvailableShare: 0.4,
    lastLagBlocks: 0,
    minPeers: 25,
    ...over,
  };
}

const offline: ValidatorTrigger = { kind: "offline", block: 1_234, era: 56, at: AT };
const base = {
  trigger: offline,
  account: STASH,
  networkName: "Polkadot",
  blockIntervalMs: 6_000,
  keysOnNode: true as boolean | null,
  keysNode: "dot-validator" as string | null,
  sessionKeys: `0x${"ab".repeat(96)}`,
};

test("an offline report during the key holder's trouble names the evidence and a synced backup, with how", () => {
  const x = explainValidatorTrouble(
    [
      node("dot-validator", {
        maxLagBlocks: 9,
        maxHeadAgeMs: 60_000,
        minPeers: 0,
        listenOverflows: 12,
        minMemAvailableShare: 0.03,
      }),
      node("dot-sidecar", { apiFamily: "sidecar" }),
      node("dot-backup"),
    ],
    base,
  );
  assert.ok(x);
  assert.equal(x.trigger, "offline");
  assert.deepEqual(x.suspects, [
    {
      node: "dot-validator",
      evidence: [
        "9 blocks behind the network",
        "head not advancing for 60 s",
        "12 listen-queue overflows",
        "only 3.0 % of memory available",
        "no peers",
      ],
    },
  ]);
  assert.match(x.summary, /^Reported offline in block #1234 \(era 56\): it coincides with trouble on dot-validator/);
  assert.equal(x.keys.held, true);
  assert.match(
    x.keys.evidence,
    /dot-validator holds the on-chain session keys \(author_hasSessionKeys answered true\)/,
  );
  assert.equal(x.backup?.node, "dot-backup", "a substrate node, never the sidecar");
  assert.match(x.backup?.howTo ?? "", /author_rotateKeys.*session\.setKeys.*never rotates keys/);
});

test("an offline report without trouble says so; a substrate head 2 blocks old is not stalled", () => {
  const x = explainValidatorTrouble([node("dot-validator", { maxHeadAgeMs: 12_000 }), node("dot-backup")], base);
  assert.ok(x);
  assert.deepEqual(x.suspects, []);
  assert.match(x.summary, /no node of yours on Polkadot shows trouble/);
  assert.equal(x.backup, null, "the key holder is healthy: nothing to move");
  const silent = explainValidatorTrouble([node("dot-validator", { samples: 0 })], base);
  assert.match(silent?.summary ?? "", /no substrate node of yours on Polkadot reported telemetry/);
});

test("keys no node holds: the evidence and a rotation on a synced node even without trouble", () => {
  const x = explainValidatorTrouble([node("dot-validator")], { ...base, keysOnNode: false, keysNode: null });
  assert.ok(x);
  assert.equal(x.keys.held, false);
  assert.match(x.summary, /author_hasSessionKeys answered false/);
  assert.equal(x.backup?.node, "dot-validator");
  const unknown = explainValidatorTrouble([], { ...base, keysOnNode: null, keysNode: null });
  assert.match(unknown?.keys.evidence ?? "", /^Not known/);
  assert.equal(unknown?.backup, null);
});

test("leaving the set and low points are explained only when the node behind the validator shows trouble", () => {
  const leftSet: ValidatorTrigger = { kind: "left-set", status: "waiting", at: AT };
  const low: ValidatorTrigger = { kind: "low-points", pointsShare: 0.3, at: AT };
  assert.equal(
    explainValidatorTrouble([node("dot-validator"), node("dot-other")], { ...base, trigger: leftSet }),
    null,
  );
  assert.equal(
    explainValidatorTrouble([node("dot-validator"), node("dot-other", { maxLagBlocks: 50 })], {
      ...base,
      trigger: low,
    }),
    null,
    "trouble on another node than the key holder does not explain the validator's points",
  );
  const x = explainValidatorTrouble([node("dot-validator", { maxLagBlocks: 50 }), node("dot-other")], {
    ...base,
    trigger: low,
  });
  assert.match(x?.summary ?? "", /^Era points at 30 % of the set's median: it coincides with trouble on dot-validator/);
  assert.equal(x?.backup?.node, "dot-other");
});

test("the trigger: the newest offline report first, then out of the set, then low points; the window", () => {
  const latest: ValidatorLatest = {
    observedAt: AT,
    source: "http://sidecar",
    headBlock: 1_300,
    activeEra: 56,
    eraProgress: 0.5,
    status: "active",
    leftSetAt: null,
    eraPoints: 100,
    medianPoints: 1_000,
    setSize: 297,
    commissionPpb: null,
    blocked: false,
    sessionKeys: null,
    keysOnNode: null,
    keysNode: null,
    pendingPayoutEras: [],
    pendingPayoutPlanck: "0",
    payoutsCheckedEra: null,
    scannedBlock: null,
  };
  const v: ValidatorStatusRow = {
    id: "v",
    organizationId: "o",
    network: "polkadot",
    account: STASH,
    createdAt: AT,
    latest,
    error: null,
  };
  const report = { producerId: "v", block: 1_234, era: 56, detectedAt: new Date(AT.getTime() - 60_000) };
  assert.equal(pickValidatorTrigger(v, report)?.kind, "offline");
  assert.deepEqual(pickValidatorTrigger(v, undefined), { kind: "low-points", pointsShare: 0.1, at: AT });
  const left = new Date(AT.getTime() - 600_000);
  assert.deepEqual(
    pickValidatorTrigger({ ...v, latest: { ...latest, status: "waiting", leftSetAt: left } }, undefined),
    {
      kind: "left-set",
      status: "waiting",
      at: left,
    },
  );
  assert.equal(pickValidatorTrigger({ ...v, latest: { ...latest, eraPoints: 900 } }, undefined), null);
  assert.equal(pickValidatorTrigger({ ...v, latest: null }, undefined), null);
  const w = validatorEvidenceWindow(pickValidatorTrigger(v, report)!, "polkadot");
  assert.equal(w.to.getTime() - w.from.getTime(), 4 * 3_600_000, "Polkadot: the 4-hour session before the report");
  assert.equal(
    validatorEvidenceWindow({ kind: "low-points", pointsShare: 0.1, at: AT }, "kusama").from.getTime(),
    AT.getTime() - 3_600_000,
  );
});
