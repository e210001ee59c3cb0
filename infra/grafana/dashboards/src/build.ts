/**
 * Writes the provisioned dashboards (../fleet.json, ../node.json) from the TypeScript sources in this
 * folder, so SQL fragments (resolution choice, histogram quantiles, fleet status) are written once.
 * Run `npm run build:dashboards -w @rpcpulse/infra`; the test fails while the JSON files are stale.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fleetDashboard } from "./fleet.js";
import { nodeDashboard } from "./node.js";

export const DASHBOARDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** File name (in DASHBOARDS_DIR) -> dashboard JSON model. */
export function buildDashboards(): Record<string, unknown> {
  return { "fleet.json": fleetDashboard(), "node.json": nodeDashboard() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, model] of Object.entries(buildDashboards())) {
    writeFileSync(path.join(DASHBOARDS_DIR, file), `${JSON.stringify(model, null, 2)}\n`);
    console.log(`wrote ${path.join(DASHBOARDS_DIR, file)}`);
  }
}
