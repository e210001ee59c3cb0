export * from "./api-keys.js";
export * from "./members.js";
export * from "./invitations.js";
export * from "./organizations.js";
