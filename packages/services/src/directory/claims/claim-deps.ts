import { type SqlClient } from "@rpcpulse/db/sql";
import type { ClaimHttpClient, TxtResolver } from "./claim-proofs.js";

export interface ClaimDeps {
  sql: SqlClient;
  /** TXT lookups (the system resolver in the app; a local DNS server in tests). */
  resolveTxt: TxtResolver;
  /** Fetches the well-known file: the prober's SSRF-safe client (a local HTTPS server in tests). */
  http: ClaimHttpClient;
  now?: () => Date;
}
