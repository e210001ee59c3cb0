// The ingest API's normaliser (one pass over the samples) against the implementation it replaced
// (support/reference-normalise.ts): the same queued job for every valid batch of the wire corpus,
// including mutated ones (groups null, keys missing, lists emptied or long) and batches that mix
// samples with and without settings, outbound lists, beacon groups and disks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { agentBatchSchema, type AgentBatch } from "@rpcpulse/domain";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { makeAgentBatch } from "./support/agent-batches.js";
import { referenceNormalise } from "./support/reference-normalise.js";
import { allPaths, getAt, seededRandom, setAt, type Json, type JsonPath } from "@rpcpulse/config/testing";
import { BASES, RICH, clone, mutateValue } from "./support/wire-corpus.js";

const asBatch = (body: Json) => body as unknown as AgentBatch;

describe("normaliseAgentBatch against the previous implementation", () => {
  it("normalises the corpus bases and a large batch alike", () => {
    for (const body of [...BASES, RICH, makeAgentBatch(3, { samples: 360, remoteIps: 100 }) as unknown as Json])
      assert.deepStrictEqual(normaliseAgentBatch(asBatch(body)), referenceNormalise(asBatch(body)));
  });

  it("normalises every valid mutated batch alike (3,000 seeded cases)", () => {
    const rand = seededRandom(20261128);
    const bases = [...BASES, RICH];
    let valid = 0;
    for (let i = 0; i < 3_000; i++) {
      let body = clone(bases[i % bases.length] as Json);
      for (let m = 1 + Math.floor(rand() * 3); m > 0; m--) {
        const paths = allPaths(body).filter((p) => p.length > 0);
        const path = paths[Math.floor(rand() * paths.length)] as JsonPath;
        body = setAt(body, path, mutateValue(rand, getAt(body, path)));
      }
      if (!agentBatchSchema.safeParse(body).success) continue;
      valid++;
      assert.deepStrictEqual(normaliseAgentBatch(asBatch(body)), referenceNormalise(asBatch(body)), `case ${i}`);
    }
    assert.ok(valid > 300, `only ${valid} valid cases`);
  });

  it("normalises batches mixing the samples of every base alike (later samples override earlier ones)", () => {
    const rand = seededRandom(7);
    const samples = [...BASES, RICH].flatMap((b) => asBatch(b).samples);
    for (let i = 0; i < 200; i++) {
      const picked = Array.from({ length: 1 + Math.floor(rand() * 8) }, () =>
        clone(samples[Math.floor(rand() * samples.length)]!),
      );
      // Some samples lose their settings or outbound list, some reorder or repeat their disks.
      for (const s of picked) {
        const r = rand();
        if (r < 0.2) s.settings = null;
        else if (r < 0.4) s.outbound = null;
        else if (r < 0.5) s.disks.reverse();
        else if (r < 0.6 && s.settings) delete s.settings.nodeArgs;
        // A second /dev/shm and data disk: the first of each counts.
        else if (r < 0.7) s.disks.push(...s.disks.map((d) => ({ ...d, freeBytes: 7, availableBytes: null })));
      }
      const batch = { ...asBatch(RICH), samples: picked };
      assert.ok(agentBatchSchema.safeParse(batch).success);
      assert.deepStrictEqual(normaliseAgentBatch(batch), referenceNormalise(batch), `case ${i}`);
    }
  });
});
