export type {
  EndpointCapabilities,
  EndpointStatus,
  FailureKind,
  FallbackEndpoint,
  FetchLike,
  ListSource,
  ListStorage,
  RankedEndpoint,
  RankedList,
} from "./types.js";
export { InvalidListError, parseRankedList, endpointsFromFallback } from "./validate.js";
export { HealthView, type BreakerOptions, type BreakerState, type EndpointHealth } from "./health.js";
export {
  createEndpointPicker,
  buildListUrl,
  type EndpointPicker,
  type EndpointPickerOptions,
  type HeadCheckOptions,
} from "./picker.js";
export {
  createFailoverTransport,
  FailoverError,
  NoEndpointError,
  type AttemptRecord,
  type FailoverTransport,
  type FailoverTransportOptions,
} from "./transport.js";
export {
  createJsonRpcCall,
  classifyError,
  classifyJsonRpcError,
  AttemptTimeoutError,
  HttpStatusError,
  JsonRpcError,
  type CallContext,
  type FailureVerdict,
  type JsonRpcCallOptions,
  type JsonRpcRequest,
} from "./json-rpc.js";
export {
  createHeadReader,
  jsonRpcHeadOf,
  hiveHeadOf,
  ethereumHeadOf,
  substrateHeadOf,
  type ChainFamily,
} from "./heads.js";
export { createEip1193Provider, type Eip1193Provider, type Eip1193ProviderOptions } from "./adapters/eip1193.js";
export {
  createDhiveFailover,
  createDhiveAddressList,
  syncDhiveAddresses,
  classifyDhiveError,
  type DhiveAddressable,
  type DhiveAddressList,
  type DhiveFailover,
  type DhiveFailoverOptions,
  type SyncDhiveOptions,
} from "./adapters/dhive.js";
export { polkadotEndpoints, trackWsProvider, type WsProviderLike } from "./adapters/polkadot.js";
