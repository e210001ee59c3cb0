/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS consumer is what this file checks */
// require() of both entries from CommonJS (Node 18/20 cannot require ESM): the .cjs builds must load and work.
const assert = require("node:assert/strict");
const core = require("@rpcpulse/client");
const { rpcPulse } = require("@rpcpulse/client/viem");
const { createPublicClient } = require("viem");

const cfg = JSON.parse(process.env.RPCPULSE_CONSUMER);

async function main() {
  assert.equal(typeof core.createEndpointPicker, "function");
  assert.match(require.resolve("@rpcpulse/client"), /dist[\\/]index\.cjs$/);
  const client = createPublicClient({ transport: rpcPulse({ network: "ethereum-mainnet", apiBase: cfg.apiBase }) });
  const head = await client.getBlockNumber();
  const picker = client.transport.picker;
  assert.ok(picker instanceof Object && typeof picker.current === "function");
  // One copy of the core: the viem entry's errors are the core entry's classes.
  assert.equal(typeof core.NoEndpointError, "function");
  process.stdout.write(JSON.stringify({ head: Number(head), current: picker.current().name }));
  picker.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
