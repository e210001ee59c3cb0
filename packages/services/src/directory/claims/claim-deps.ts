import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import type { ClaimHttpClient, TxtResolver } from "./claim-proofs.js";

export interface ClaimDeps {
  sql: SqlClient;
  /** TXT lookups (the system resolver in the app; a local DNS server in tests). */
  resolveTxt: TxtResolver;
  /** Fetches the well-known file: the prober's SSRF-safe client (a local HTTPS server in tests). */
  http: ClaimHttpClient;
  now?: () => Date;
}

/** An endpoint or claim id; anything else names nothing (or, for `claimEndpoint`, is a URL). */
export const ClaimRefId = z.uuid({ error: "Not a valid id." });
