export * from "./access-control.js";
export * from "./create-auth.js";
export * from "./demo-constants.js";
export * from "./demo-account.js";
export * from "./call-auth-endpoint.js";
export * from "./account-actions.js";
export * from "./organization-actions.js";
export * from "./session.js";
