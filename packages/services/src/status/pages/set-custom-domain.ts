import { randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";
import { setStatusPageDomain } from "@rpcpulse/db/status";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

const DomainInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine(
    (d) => d === "" || /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d),
    "A host name like status.example.org.",
  );

/**
 * Ask for a custom domain (or clear it with ""). This reserves nothing: the page serves the domain
 * only once verified, and any page may ask for a domain another one asked for or serves; the one
 * whose TXT record is verified last serves it (verifyCustomDomain). A fresh token each time, and a
 * changed domain is unverified.
 */
export async function setCustomDomain(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; domain: string },
): Promise<{ domain: string | null; verifyToken: string | null }> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  const domain = DomainInput.parse(input.domain) || null;
  const verifyToken = domain ? `rpcpulse-verify=${randomBytes(16).toString("hex")}` : null;
  const ok = await setStatusPageDomain(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    domain,
    verifyToken,
  });
  if (!ok) throw new AppError("NOT_FOUND", "Status page not found.");
  invalidateStatusSnapshots();
  return { domain, verifyToken };
}
