export * from "./claim-view.js";
export * from "./claim-proofs.js";
export type { ClaimDeps } from "./claim-deps.js";
export * from "./list-endpoint-claims.js";
export * from "./claim-endpoint.js";
export * from "./verify-endpoint-claim.js";
export * from "./withdraw-endpoint-claim.js";
