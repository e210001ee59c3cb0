export * from "./token-format.js";
export * from "./manage-agent-tokens.js";
export * from "./agent-token-verifier.js";
export * from "./revoke-agent-token-of-node.js";
