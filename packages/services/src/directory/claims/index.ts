export * from "./claim-view.js";
export * from "./claim-proofs.js";
export * from "./manage-endpoint-claims.js";
