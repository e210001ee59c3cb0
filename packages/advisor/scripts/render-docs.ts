// Rewrites the generated tables in packages/advisor/README.md: npm run docs -w @rpcpulse/advisor
import { readFileSync, writeFileSync } from "node:fs";
import { renderRulesTable, renderThresholdsTable } from "../src/docs.js";

const file = new URL("../README.md", import.meta.url);
let text = readFileSync(file, "utf8");
const put = (name: string, body: string) => {
  const re = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!re.test(text)) throw new Error(`README has no ${name} markers`);
  text = text.replace(re, `$1\n\n${body}\n\n$2`);
};
put("rules", renderRulesTable());
put("thresholds", renderThresholdsTable());
writeFileSync(file, text);
