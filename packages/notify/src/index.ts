export * from "./outcome.js";
export * from "./message.js";
export * from "./webhook-signature.js";
export * from "./email.js";
export * from "./http-post.js";
export * from "./channels.js";
