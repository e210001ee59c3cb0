// The region quorum rules (region-quorum.ts, region-head-votes.ts) on hand-made inputs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndpointRegionHeadInput } from "@rpcpulse/db/directory";
import type { ScoreSample } from "@rpcpulse/prober";
import { selectRegionHeadVotes } from "../src/ingest/region-head-votes.js";
import {
  combineRegionStatuses,
  nextListingStatusByQuorum,
  regionQuorum,
  selectReportingRegions,
} from "../src/directory/region-quorum.js";

const ROUND = 30_000;

function samples(oks: boolean[], lastAt: number): ScoreSample[] {
  return oks.map((ok, i) => ({ at: lastAt - (oks.length - 1 - i) * ROUND, ok, ttfbMs: ok ? 50 : null }) as ScoreSample);
}

describe("region quorum", () => {
  it("needs more than the share of the reporting regions", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((n) => regionQuorum(n)),
      [0, 1, 2, 2, 3, 3],
    );
    assert.deepEqual(
      [1, 2, 3].map((n) => regionQuorum(n, 0)),
      [1, 1, 1],
    );
    assert.deepEqual(
      [1, 2, 3].map((n) => regionQuorum(n, 0.99)),
      [1, 2, 3],
    );
  });

  it("leaves out a region whose newest probe is more than three rounds behind", () => {
    const now = 1_000_000;
    const reporting = selectReportingRegions(
      new Map([
        ["eu", now],
        ["us", now - 3 * ROUND],
        ["ap", now - 3 * ROUND - 1],
      ]),
      ROUND,
    );
    assert.deepEqual(reporting, ["eu", "us"]);
  });

  it("combines statuses: a quorum for dead, the quorum-th best when reached, degraded on a split", () => {
    const split = combineRegionStatuses(
      new Map([
        ["eu", "healthy"],
        ["us", "dead"],
      ]),
      0.5,
    );
    assert.equal(split.status, "degraded");
    assert.equal(split.split, true);
    assert.equal(split.quorum, 2);
    const majority = combineRegionStatuses(
      new Map([
        ["eu", "healthy"],
        ["us", "healthy"],
        ["ap", "dead"],
      ]),
      0.5,
    );
    assert.equal(majority.status, "healthy");
    const down = combineRegionStatuses(
      new Map([
        ["eu", "dead"],
        ["us", "dead"],
        ["ap", "healthy"],
      ]),
      0.5,
    );
    assert.equal(down.status, "dead");
    const mixed = combineRegionStatuses(
      new Map([
        ["eu", "healthy"],
        ["us", "lagging"],
        ["ap", "degraded"],
      ]),
      0.5,
    );
    assert.equal(mixed.status, "degraded", "two of three regions see it degraded or better");
    assert.equal(combineRegionStatuses(new Map([["eu", "dead"]]), 0.5).status, "dead", "one region decides alone");
  });

  it("changes the listing status only on a quorum of regions", () => {
    const now = 10_000_000;
    const settings = { share: 0.5, roundMs: ROUND };
    const failing = samples([false, false, false, false, false, false], now);
    const fine = samples([true, true, true, true, true, true], now);
    assert.equal(
      nextListingStatusByQuorum(
        "active",
        new Map([
          ["eu", fine],
          ["us", failing],
        ]),
        settings,
      ),
      "active",
      "a split keeps the current status",
    );
    assert.equal(
      nextListingStatusByQuorum(
        "active",
        new Map([
          ["eu", failing],
          ["us", failing],
        ]),
        settings,
      ),
      "dead",
    );
    const silent = samples([true, true, true], now - 10 * ROUND);
    assert.equal(
      nextListingStatusByQuorum(
        "active",
        new Map([
          ["eu", failing],
          ["us", silent],
        ]),
        settings,
      ),
      "dead",
      "a silent region does not hold the verdict up",
    );
    assert.equal(nextListingStatusByQuorum("dead", new Map(), settings), "dead");
  });

  it("an endpoint votes for the head with what a quorum of its regions reached", () => {
    const at = Date.parse("2026-01-01T00:00:00Z");
    const row = (region: string, head: number | null, lastOk: boolean, ageMs = 1_000): EndpointRegionHeadInput => ({
      networkId: "n",
      endpointId: "e1",
      claimantOrganizationId: null,
      region,
      lastProbeAt: new Date(at - ageMs),
      lastOk,
      headBlock: head,
      headTime: null,
      observedAt: head === null ? null : new Date(at - ageMs),
    });
    const settings = { at, blockIntervalMs: 12_000, share: 0.5, roundMs: ROUND };
    assert.deepEqual(
      selectRegionHeadVotes([row("eu", 100, true), row("us", 110, true)], settings).map((v) => v.headBlock),
      [100],
      "the highest head both regions saw",
    );
    assert.deepEqual(
      selectRegionHeadVotes([row("eu", 100, true), row("us", 90, false)], settings),
      [],
      "one region reaching it is not a quorum of two",
    );
    assert.deepEqual(
      selectRegionHeadVotes([row("eu", 100, true), row("us", 90, false, 10 * ROUND)], settings).map((v) => v.headBlock),
      [100],
      "a region that stopped reporting is left out",
    );
    assert.deepEqual(
      selectRegionHeadVotes([row("eu", 100, false)], settings).map((v) => v.headBlock),
      [100],
      "one region: its newest successful probe, as before regions",
    );
  });
});
