import type { HeadView, SimNode } from "../sim-node.js";
import type { RpcDialect } from "../jsonrpc.js";

export interface CallContext {
  node: SimNode;
  view: HeadView;
  transport: "http" | "ws";
}

export type SubscriptionTopic = "newHeads" | "finalizedHeads" | "allHeads" | "runtimeVersion" | "storage";

export interface SubscriptionRequest {
  topic: SubscriptionTopic;
  /** `method` of the notifications (eth_subscription, chain_newHead, ...). */
  notifyMethod: string;
  /** Substrate sends the current value at once; Ethereum waits for the next head. */
  sendInitial: boolean;
  /** state_subscribeStorage: the storage keys watched. */
  keys?: string[];
}

/** A JSON-RPC node software: its methods, its error wording, its subscriptions. */
export interface JsonRpcFamily {
  readonly kind: "jsonrpc";
  readonly dialect: RpcDialect;
  /** Subscription ids as this software formats them. */
  readonly subscriptionIdStyle: "hex" | "alnum";
  /** Answer one call; throws RpcError for an error answer. */
  call(method: string, params: unknown, ctx: CallContext): unknown;
  /** A subscribe method: what to stream. undefined when `method` is not one. Throws RpcError on bad params. */
  openSubscription(method: string, params: unknown, ctx: CallContext): SubscriptionRequest | undefined;
  /** An unsubscribe method: the subscription id it names. undefined when `method` is not one. */
  unsubscribeTarget(method: string, params: unknown): string | undefined;
  /**
   * Payload of one notification for `height` (a header, the runtime version, storage changes).
   * undefined = nothing to send (no watched storage value changed).
   */
  renderNotification(request: SubscriptionRequest, height: number, ctx: CallContext, previousHeight?: number): unknown;
  /** Height a topic is at in a view (finalizedHeads follows finality). */
  topicHeight(topic: SubscriptionTopic, view: HeadView): number;
}

export interface RestResponse {
  status: number;
  body: unknown;
}

/** A REST node software (substrate-api-sidecar). */
export interface RestFamily {
  readonly kind: "rest";
  handle(method: string, url: URL, ctx: CallContext): RestResponse;
  internalError(): RestResponse;
  rateLimited(): RestResponse;
}

export type Family = JsonRpcFamily | RestFamily;
