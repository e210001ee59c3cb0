/* global window, location, URLSearchParams -- a browser page script */
// Bundled by esbuild (--platform=browser) from the installed package in the fresh project, loaded by a
// page in Chromium. Settings come from the page URL; window.consumer is what the test drives.
import { rpcPulse } from "@rpcpulse/client/viem";
import { createPublicClient } from "viem";
import { sepolia } from "viem/chains";

const params = new URLSearchParams(location.search);
const transport = rpcPulse({
  network: "ethereum-sepolia",
  apiBase: params.get("api"),
  storage: window.localStorage,
  http: { batch: true },
});
const client = createPublicClient({ chain: sepolia, transport, cacheTime: 0 });
const picker = client.transport.picker;

window.consumer = {
  async read() {
    const [head, chainId] = await Promise.all([client.getBlockNumber(), client.getChainId()]);
    return { head: Number(head), chainId, current: picker.current()?.name, source: picker.source };
  },
};
