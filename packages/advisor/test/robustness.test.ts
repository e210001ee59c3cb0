import assert from "node:assert/strict";
import { it } from "node:test";
import { API_FAMILIES } from "@rpcpulse/domain";
import {
  checkSysctlValue,
  evaluateNode,
  parseSysctlFile,
  type AdvisorInput,
  type AdvisorSample,
  type AdvisorSettings,
} from "../src/index.js";
import { at, quietSample } from "./fixtures.js";
import { seededRandom } from "@rpcpulse/config/testing";

/** Seeded PRNG (mulberry32): reproducible odd inputs. */
const rng = seededRandom;

const ODD = [null, undefined, 0, 1, 7, 511, 4096, 65535, 2 ** 31 - 1, 2 ** 40, 0.5];

it("odd, partial and extreme inputs never throw and never yield an invalid sysctl line", () => {
  const r = rng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  for (let round = 0; round < 400; round++) {
    const n = Math.floor(r() * 12);
    const samples: AdvisorSample[] = [];
    for (let i = 0; i < n; i++) {
      const s: Record<string, unknown> = { ...quietSample(i) };
      for (const k of Object.keys(s))
        if (k !== "time" && r() < 0.4) s[k] = k === "syncing" ? pick([true, false, null]) : pick(ODD);
      samples.push(s as unknown as AdvisorSample);
    }
    const input: AdvisorInput = {
      node: {
        id: `n${round}`,
        family: pick(API_FAMILIES),
        chain: pick(["hive", "steem", "ethereum", "polkadot", null]),
        clientVersion: pick([null, "", "Nethermind/v1.33.1", "Geth/v1.16.7-stable", "1.27.11", "weird"]),
        publicPorts: pick([[], [80], [80, 443], [9944]]),
        rpcPort: pick([null, 8545, 9944, 8091]),
        blockIntervalMs: pick([null, 0, 3000, 12000]),
      },
      window: {
        from: at(0),
        to: at(Math.max(0, n - 1)),
        samples,
        remoteIps: samples.flatMap((s) =>
          r() < 0.5
            ? [{ time: s.time, ip: pick(["127.0.0.1", "::1", "192.0.2.1"]), connections: Math.floor(r() * 500) }]
            : [],
        ),
        outbound: samples.flatMap((s) =>
          r() < 0.3
            ? [
                {
                  time: s.time,
                  ip: pick(["127.0.0.1", "10.0.0.1", "2001:db8::1"]),
                  port: pick([2001, 8545]),
                  sockets: Math.floor(r() * 40000),
                  established: 1,
                  timeWait: Math.floor(r() * 40000),
                },
              ]
            : [],
        ),
      },
      settings: pick<AdvisorSettings | null>([
        null,
        {},
        {
          tcpTwReuse: pick(ODD) as number | null,
          somaxconn: pick(ODD) as number | null,
          tcpMaxTwBuckets: pick(ODD) as number | null,
          tcpMaxSynBacklog: pick(ODD) as number | null,
          tcpFinTimeout: pick(ODD) as number | null,
          ipLocalPortRange: pick([null, { low: 1024, high: 65535 }, { low: 60000, high: 60001 }]),
          shmTotalBytes: pick(ODD) as number | null,
          clientConfig: pick<Record<string, string> | null>([
            null,
            {},
            { "shared-file-size": "bogus", "p2p-endpoint": ":" },
            { "--rpc-max-connections": "NaN" },
          ]),
        },
      ]),
    };
    const drafts = evaluateNode(input);
    for (const d of drafts) {
      assert.ok(Number.isFinite(d.impact), `${d.ruleId} impact`);
      for (const e of d.evidence)
        assert.ok(
          Number.isFinite(e.observed) && Number.isFinite(e.threshold),
          `${d.ruleId} evidence ${JSON.stringify(e)}`,
        );
      for (const s of d.snippets.filter((x) => x.kind === "sysctl"))
        for (const l of parseSysctlFile(s.content))
          assert.equal(checkSysctlValue(l.key, l.value), null, `${d.ruleId}: ${l.key} = ${l.value}`);
      for (const s of d.snippets)
        assert.doesNotMatch(s.content, /NaN|Infinity|undefined/, `${d.ruleId} ${s.kind}:\n${s.content}`);
    }
  }
});
