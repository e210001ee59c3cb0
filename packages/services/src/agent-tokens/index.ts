export * from "./token-format.js";
export * from "./manage-agent-tokens.js";
export * from "./agent-token-verifier.js";
