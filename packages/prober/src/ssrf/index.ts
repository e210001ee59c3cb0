export * from "./errors.js";
export * from "./ip-policy.js";
export * from "./url-policy.js";
export * from "./safe-lookup.js";
export * from "./http-client.js";
export * from "./safe-websocket.js";
export * from "./resolve-target.js";
