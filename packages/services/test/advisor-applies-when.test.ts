import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { settingMatches } from "../src/advisor/applies-when.js";

describe("appliesWhen matching (agent-detected applied)", () => {
  const s = {
    tcpTwReuse: 1,
    somaxconn: 4096,
    ipLocalPortRange: { low: 15000, high: 64999 },
    tcpTwRecycleLines: [],
    tcpFinTimeout: null,
  };
  test("exact values, whitespace-normalised", () => {
    assert.equal(settingMatches(s, { setting: "tcpTwReuse", expected: "1" }), true);
    assert.equal(settingMatches(s, { setting: "tcpTwReuse", expected: "2" }), false);
    assert.equal(settingMatches(s, { setting: "ipLocalPortRange", expected: " 15000   64999 " }), true);
    assert.equal(settingMatches(s, { setting: "ipLocalPortRange", expected: "32768 60999" }), false);
    assert.equal(settingMatches(s, { setting: "tcpTwRecycleLines", expected: "[]" }), true);
  });
  test("numeric comparisons; a port range compares by size", () => {
    assert.equal(settingMatches(s, { setting: "somaxconn", expected: ">=4096" }), true);
    assert.equal(settingMatches(s, { setting: "somaxconn", expected: ">= 8192" }), false);
    assert.equal(settingMatches(s, { setting: "somaxconn", expected: "<5000" }), true);
    assert.equal(settingMatches(s, { setting: "ipLocalPortRange", expected: ">=50000" }), true);
    assert.equal(settingMatches(s, { setting: "ipLocalPortRange", expected: ">60000" }), false);
  });
  test("unknown settings never match (applied must be seen, not assumed)", () => {
    assert.equal(settingMatches(null, { setting: "somaxconn", expected: "1" }), null);
    assert.equal(settingMatches(s, { setting: "tcpFinTimeout", expected: "30" }), null);
    assert.equal(settingMatches(s, { setting: "Network.MaxActivePeers", expected: "50" }), null);
  });
});
