export * from "./access-control.js";
export * from "./create-auth.js";
export * from "./demo-constants.js";
export * from "./demo-account.js";
export * from "./call-auth-endpoint.js";
export * from "./account-actions.js";
export * from "./organization-actions.js";
export * from "./session.js";
export * from "./auth-mail.js";
export {
  EMAIL_VERIFICATION_EXPIRES_IN_SECONDS,
  RESET_PASSWORD_EXPIRES_IN_SECONDS,
  verificationLinkIdentifier,
} from "./email-flows.js";
export * from "./recovery-actions.js";
export * from "./two-factor-actions.js";
