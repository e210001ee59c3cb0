// The validator card's advisor explanation through the real database (plain mode): a validator reported
// offline while the organization's validating node (the one holding the session keys) lagged, lost its
// peers and ran out of memory in the session before the report; the card names that evidence, the keys'
// holder, and the synced backup node to rotate keys on. Another organization's nodes are never read.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { insertNodeSamples, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { recordValidatorReading, type ValidatorReading } from "@rpcpulse/db/producers";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { listValidatorViews, registerProducer } from "@rpcpulse/services/producers";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-validator-advice";
const OTHER = "org-validator-advice-other";
const STASH = "14BPkWYgSc1VypBu8AN3ALyjxGDi4wrQ1mebRssoXQk7ri6y";
const NOW = Date.now();
const REPORT_AT = NOW - 10 * 60_000;

function ctxOf(organizationId: string): ServiceContext {
  return { userId: `u-${organizationId}`, organizationId, organizationSlug: organizationId, role: "owner" };
}

describe("validator advisor explanation", () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
    for (const id of [ORG, OTHER]) await createTestOrg(db, { id });
  });
  after(async () => {
    await db?.drop();
  });

  async function createNode(organizationId: string, name: string, family: "substrate" | "sidecar") {
    const node = await createTestNode(db, {
      organizationId,
      network: "polkadot",
      apiFamily: family,
      clientName: family === "substrate" ? "polkadot" : "substrate-api-sidecar",
      name,
      localRpcUrl: "http://127.0.0.1:9944",
    });
    return node.id;
  }

  /** Samples every 10 s over the hour before the report, shaped by `f`. */
  async function samples(nodeId: string, f: (at: number) => Partial<NodeSampleInput>) {
    const rows: NodeSampleInput[] = [];
    for (let at = REPORT_AT - 3_600_000; at <= REPORT_AT; at += 10_000) {
      rows.push({
        time: new Date(at),
        nodeId,
        lagBlocks: 0,
        headAgeMs: 3_000,
        peers: 30,
        memAvailable: 8e9,
        memTotal: 16e9,
        listenOverflows: 0,
        ...f(at),
      });
    }
    await insertNodeSamples(db.pool, rows);
  }

  function reading(producerId: string, over: Partial<ValidatorReading> = {}): ValidatorReading {
    return {
      producerId,
      observedAt: new Date(NOW - 30_000),
      source: "http://sidecar.internal:8080",
      headBlock: 20_000_000,
      activeEra: 1_500,
      eraProgress: 0.5,
      status: "active",
      eraPoints: 1_000,
      medianPoints: 1_000,
      setSize: 297,
      commissionPpb: 30_000_000,
      blocked: false,
      sessionKeys: `0x${"ab".repeat(96)}`,
      keysOnNode: true,
      keysNode: "dot-validator",
      payouts: null,
      scannedBlock: 20_000_000,
      offlineReports: [],
      ...over,
    };
  }

  it("explains the newest offline report by the key holder's trouble and names the synced backup", async () => {
    const ctx = ctxOf(ORG);
    const validatorNode = await createNode(ORG, "dot-validator", "substrate");
    const backup = await createNode(ORG, "dot-backup", "substrate");
    const sidecar = await createNode(ORG, "dot-sidecar", "sidecar");
    const theirs = await createNode(OTHER, "their-dot", "substrate");
    // The validating node stalls 20 minutes before the report: head stops, lag grows, peers and memory go.
    const trouble = REPORT_AT - 20 * 60_000;
    await samples(validatorNode, (at) =>
      at < trouble
        ? {}
        : { lagBlocks: Math.round((at - trouble) / 6_000), headAgeMs: at - trouble, peers: 0, memAvailable: 4e8 },
    );
    await samples(backup, () => ({}));
    await samples(sidecar, () => ({}));
    await samples(theirs, () => ({ lagBlocks: 500, peers: 0 }));

    const validator = await registerProducer({ sql: db.pool }, ctx, { network: "polkadot", account: STASH });
    await recordValidatorReading(
      db.pool,
      reading(validator.id, {
        observedAt: new Date(REPORT_AT),
        offlineReports: [{ block: 19_999_900, era: 1_500 }],
      }),
    );
    await recordValidatorReading(db.pool, reading(validator.id));

    const [view] = await listValidatorViews({ sql: db.pool }, ctx, { now: new Date(NOW) });
    const x = view?.explanation;
    assert.ok(x, "the card carries an explanation");
    assert.equal(x.trigger, "offline");
    assert.match(
      x.summary,
      /^Reported offline in block #19999900 \(era 1500\): it coincides with trouble on dot-validator/,
    );
    assert.deepEqual(
      x.suspects.map((s) => s.node),
      ["dot-validator"],
      "only the organization's own troubled node",
    );
    const evidence = x.suspects[0]?.evidence.join(", ") ?? "";
    assert.match(evidence, /blocks behind the network/);
    assert.match(evidence, /head not advancing for 1200 s/);
    assert.match(evidence, /no peers/);
    assert.match(evidence, /only 2\.5 % of memory available/);
    assert.equal(x.keys.held, true);
    assert.equal(x.keys.node, "dot-validator");
    assert.equal(x.backup?.node, "dot-backup");
    assert.match(x.backup?.howTo ?? "", /author_rotateKeys.*session\.setKeys/);
    assert.equal(JSON.stringify(x).includes("their-dot"), false, "another organization's node is never read");

    // The other organization sees nothing of it.
    assert.deepEqual(await listValidatorViews({ sql: db.pool }, ctxOf(OTHER), { now: new Date(NOW) }), []);
  });
});
