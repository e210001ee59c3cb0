// Simulated staking behind sidecar: the routes answer sidecar's field names with string numbers; era
// points accrue; the control server takes a validator offline (reported by im-online at the session
// end), drops one out of the set at the next era, and makes a node lose the on-chain session keys.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { z } from "zod";
import { ERA_BLOCKS, SESSION_BLOCKS, type Simnet } from "../src/index.js";
import type { ManualClock } from "../src/clock.js";
import { getJson, rpcResult, startTestSimnet } from "./helpers.js";

const num = z.string().regex(/^\d+$/);
const at = z.object({ hash: z.string().regex(/^0x[0-9a-f]{64}$/), height: num }).strict();
const progress = z
  .object({
    at,
    activeEra: num,
    forceEra: z.string(),
    nextActiveEraEstimate: num,
    nextSessionEstimate: num,
    unappliedSlashes: z.array(z.unknown()),
    electionStatus: z.object({ status: z.unknown(), toggleEstimate: num }),
    idealValidatorCount: num,
    validatorSet: z.array(z.string().regex(/^1[1-9A-HJ-NP-Za-km-z]{46,47}$/)),
  })
  .strict();
const storage = <T extends z.ZodType>(value: T) =>
  z
    .object({ at, pallet: z.string(), palletIndex: num, storageItem: z.string(), keys: z.array(z.string()), value })
    .strict();

let simnet: Simnet;
let clock: ManualClock;
let sidecar: string;
let control: string;

before(async () => {
  ({ simnet, clock } = await startTestSimnet({
    seed: "validators-test",
    nodes: [
      { name: "sc", family: "sidecar", network: "polkadot", port: 0 },
      { name: "rpc", family: "substrate", network: "polkadot", port: 0 },
    ],
    controlPort: 0,
  }));
  sidecar = simnet.node("sc").url;
  control = simnet.controlUrl!;
});
after(() => simnet.close());

const post = async (path: string) =>
  (await fetch(`${control}${path}`, { method: "POST" })).json() as Promise<Record<string, unknown>>;

test("staking progress, era points, prefs and keys answer sidecar's shapes", async () => {
  const p = progress.parse((await getJson(`${sidecar}/pallets/staking/progress`)).json);
  assert.equal(p.validatorSet.length, 297);
  const era = Number(p.activeEra);
  const points = storage(z.object({ total: num, individual: z.record(z.string(), num) }).strict()).parse(
    (await getJson(`${sidecar}/pallets/staking/storage/erasRewardPoints?keys[]=${era}`)).json,
  );
  const stash = p.validatorSet[0]!;
  clock.advance(10 * 6_000);
  const later = storage(z.object({ total: num, individual: z.record(z.string(), num) })).parse(
    (await getJson(`${sidecar}/pallets/staking/storage/erasRewardPoints?keys[]=${era}`)).json,
  );
  // T0 is fixed: 10 more blocks fall inside the same era, so the stash's points for it grew.
  assert.ok(Number(later.value.individual[stash]) > Number(points.value.individual[stash] ?? "0"), "points accrue");
  const prefs = storage(z.object({ commission: num, blocked: z.boolean() }).strict()).parse(
    (await getJson(`${sidecar}/pallets/staking/storage/validators?keys[]=${stash}`)).json,
  );
  assert.ok(Number(prefs.value.commission) >= 10_000_000);
  const keys = storage(z.record(z.string(), z.string())).parse(
    (await getJson(`${sidecar}/pallets/session/storage/nextKeys?keys[]=${stash}`)).json,
  );
  const hex = `0x${Object.values(keys.value)
    .map((k) => k.slice(2))
    .join("")}`;
  assert.equal(await rpcResult(simnet.node("rpc").url, "author_hasSessionKeys", [hex]), true);
  await post(`/validators/polkadot/${stash}/keys?onNode=0`);
  assert.equal(await rpcResult(simnet.node("rpc").url, "author_hasSessionKeys", [hex]), false);
  assert.equal((await getJson(`${sidecar}/pallets/staking/storage/nothing`)).status, 404);
});

test("control: offline → SomeOffline at the session start; drop → waiting from the next era", async () => {
  const book = simnet.validators("polkadot");
  const stash = book.address(9);
  const off = await post(`/validators/polkadot/${stash}/offline`);
  const reportAt = Number(off.reportAtBlock);
  assert.equal(reportAt % SESSION_BLOCKS, 0);
  clock.advance((reportAt + 4 - simnet.node("sc").head()) * 6_000);
  const block = (await getJson(`${sidecar}/blocks/${reportAt}`)).json as {
    onInitialize: { events: Array<{ method: { pallet: string; method: string }; data: unknown[] }> };
  };
  const event = block.onInitialize.events.find((e) => e.method.method === "SomeOffline");
  assert.equal(event?.method.pallet, "imOnline");
  assert.equal((event?.data[0] as unknown[][])[0]?.[0], stash);

  const dropped = await post(`/validators/polkadot/${stash}/drop`);
  assert.equal(Number(dropped.fromBlock) % ERA_BLOCKS, 0);
  clock.advance((Number(dropped.fromBlock) + 4 - simnet.node("sc").head()) * 6_000);
  const p = progress.parse((await getJson(`${sidecar}/pallets/staking/progress`)).json);
  assert.ok(!p.validatorSet.includes(stash));
  const all = (await getJson(`${sidecar}/pallets/staking/validators`)).json as {
    validators: Array<{ address: string; status: string }>;
  };
  assert.equal(all.validators.find((v) => v.address === stash)?.status, "waiting");

  const payouts = await getJson(`${sidecar}/accounts/${stash}/staking-payouts?depth=2`);
  assert.equal(payouts.status, 200);
  assert.equal((await getJson(`${sidecar}/accounts/${stash}/staking-payouts?depth=200`)).status, 400);
  assert.equal(
    (await post(`/validators/polkadot/nobody/offline`)).error,
    "nobody is not a simulated validator of polkadot",
  );
});
