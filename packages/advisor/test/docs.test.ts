import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { renderRulesTable, renderThresholdsTable, tableCells } from "../src/docs.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const section = (name: string) => readme.split(`<!-- ${name}:start -->`)[1]!.split(`<!-- ${name}:end -->`)[0]!;

it("README rules and thresholds tables match RULES and DEFAULT_THRESHOLDS (npm run docs)", () => {
  assert.deepEqual(tableCells(section("rules")), tableCells(renderRulesTable()));
  assert.deepEqual(tableCells(section("thresholds")), tableCells(renderThresholdsTable()));
});
