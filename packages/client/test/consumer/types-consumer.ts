// Typechecked (never run) in the fresh project with module/moduleResolution nodenext: the shipped
// declarations, exports map and peer types fit together as a TypeScript user meets them.
import { Client } from "@hiveio/dhive";
import { WsProvider } from "@polkadot/api";
import {
  createDhiveAddressList,
  createEndpointPicker,
  polkadotEndpoints,
  syncDhiveAddresses,
  trackWsProvider,
  type EndpointPicker,
  type RankedEndpoint,
} from "@rpcpulse/client";
import { rpcPulse, type RpcPulseTransport } from "@rpcpulse/client/viem";
import { createPublicClient, fallback, http, type Transport } from "viem";
import { mainnet } from "viem/chains";

const picker = createEndpointPicker({ network: "ethereum-mainnet", apiBase: "https://rpcpulse.example" });
const transport: RpcPulseTransport = rpcPulse({ picker, http: { batch: true } });
export const asTransport: Transport = transport;
export const direct = createPublicClient({ chain: mainnet, transport });
export const shared: EndpointPicker = direct.transport.picker;
export const nested = createPublicClient({
  chain: mainnet,
  transport: fallback([rpcPulse({ network: "ethereum-mainnet", apiBase: "https://rpcpulse.example" }), http()]),
});
export const best: RankedEndpoint | undefined = picker.current();
export const stopDhive = syncDhiveAddresses(picker, new Client(picker.urls()));
export const list = createDhiveAddressList({ picker });
export const stopWs = trackWsProvider(picker, new WsProvider(polkadotEndpoints(picker), false));
// @ts-expect-error a network (with apiBase) or a picker is required
rpcPulse({ maxEndpoints: 2 });
