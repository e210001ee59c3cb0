/**
 * Browser page script for browser.test.ts: bundled with esbuild --platform=browser from the library's src.
 * It reads its settings from the page URL and exposes a small API on `window.rpcpulse` for Playwright.
 */
import {
  createEndpointPicker,
  createFailoverTransport,
  createJsonRpcCall,
  jsonRpcHeadOf,
  type JsonRpcRequest,
} from "../../src/index.js";

const params = new URLSearchParams(location.search);
const picker = createEndpointPicker({
  network: params.get("network") ?? "ethereum-mainnet",
  apiBase: params.get("api") ?? location.origin,
  refreshMs: 60_000,
  storage: window.localStorage,
});
const call = createJsonRpcCall();
let lastUrl = "";
const transport = createFailoverTransport<JsonRpcRequest, unknown>(picker, {
  call: (url, request, ctx) => {
    lastUrl = url;
    return call(url, request, ctx);
  },
  headOf: jsonRpcHeadOf("ethereum"),
  perAttemptTimeoutMs: 1500,
  maxAttempts: 3,
});

const log = document.getElementById("log") as HTMLElement;

async function blockNumber(): Promise<{ head: number; url: string }> {
  const hex = await transport.run({ method: "eth_blockNumber" });
  const result = { head: Number.parseInt(String(hex), 16), url: lastUrl };
  log.textContent = `block ${result.head} from ${result.url}`;
  return result;
}

declare global {
  interface Window {
    rpcpulse: {
      ready(): Promise<void>;
      blockNumber(): Promise<{ head: number; url: string }>;
      current(): string | undefined;
      source(): string;
      stored(): number;
    };
  }
}

window.rpcpulse = {
  ready: () => picker.ready(),
  blockNumber,
  current: () => picker.current()?.url,
  source: () => picker.source,
  stored: () => Object.keys(window.localStorage).filter((k) => k.startsWith("rpcpulse:")).length,
};
