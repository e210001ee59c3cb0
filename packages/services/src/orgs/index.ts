export * from "./list-user-organizations.js";
export * from "./list-organization-members.js";
export * from "./get-organization-member.js";
export * from "./list-pending-invitations.js";
export * from "./api-key-format.js";
export * from "./manage-api-keys.js";
export * from "./authenticate-api-key.js";
