import { resolveTxt } from "node:dns/promises";
import { AppError } from "@rpcpulse/config";
import { markStatusPageDomainVerified } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { isUniqueViolation } from "./status-page-input.js";
import { getStatusPageForAdmin } from "./get-status-page-for-admin.js";

/** The TXT record a domain owner publishes to prove the domain maps to this page. */
export function domainVerificationRecord(domain: string): string {
  return `_rpcpulse-verify.${domain}`;
}

/**
 * Look the TXT record up; a domain is served only once it is verified. Verified, the page serves the
 * domain and a page that served it before (another organization's too) stops: the current DNS
 * proof counts.
 */
export async function verifyCustomDomain(
  deps: ServiceDeps & { lookupTxt?: (name: string) => Promise<string[][]> },
  ctx: ServiceContext,
  input: { pageId: string; now?: Date },
): Promise<{ verified: boolean }> {
  requireRole(ctx, "admin");
  const page = await getStatusPageForAdmin(deps, ctx, input);
  if (!page.customDomain || !page.domainVerifyToken) throw new AppError("VALIDATION", "Set a custom domain first.");
  const lookup = deps.lookupTxt ?? resolveTxt;
  let records: string[][] = [];
  try {
    records = await lookup(domainVerificationRecord(page.customDomain));
  } catch {
    return { verified: false };
  }
  const found = records.some((chunks) => chunks.join("") === page.domainVerifyToken);
  if (!found) return { verified: false };
  try {
    const ok = await markStatusPageDomainVerified(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      domain: page.customDomain,
      at: input.now ?? new Date(),
    });
    // The domain was changed or removed while its record was looked up: nothing verified.
    if (!ok) return { verified: false };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "The domain is being verified for another page right now; try again.");
    throw error;
  } finally {
    invalidateStatusSnapshots();
  }
  return { verified: true };
}
