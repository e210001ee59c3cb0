/** The demo login, shown on the sign-in page when DEMO_MODE is on. Public by design: demo only. */
export const DEMO_EMAIL = "demo@rpcpulse.dev";
export const DEMO_PASSWORD = "pulse-demo-2026";
export const DEMO_ORG_NAME = "Demo fleet";
export const DEMO_ORG_SLUG = "demo-fleet";
