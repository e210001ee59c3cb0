-- Claims cannot be bought (issue 10).
--
-- Endpoint claims: a claim is proved by a DNS TXT record or by a token the endpoint serves at
-- https://<host>/.well-known/rpcpulse-claim. An agent's report is no proof any more: claims verified
-- "through the agent" go back to pending, an endpoint held through such a claim returns to the
-- organization that held it before by a DNS proof (latest first), else to nobody, and the column that
-- named the proving node goes.
UPDATE "public_endpoints" e
SET "claimed_by_organization_id" = (
    SELECT c."organization_id" FROM "endpoint_claims" c
    WHERE c."endpoint_id" = e."id" AND c."verified_at" IS NOT NULL AND c."verified_method" = 'dns'
    ORDER BY c."verified_at" DESC
    LIMIT 1)
WHERE EXISTS (
    SELECT 1 FROM "endpoint_claims" c
    WHERE c."endpoint_id" = e."id" AND c."organization_id" = e."claimed_by_organization_id"
      AND c."verified_method" = 'agent');

UPDATE "endpoint_claims"
SET "verified_at" = NULL,
    "verified_method" = NULL,
    "last_error" = 'Verification through the agent is no longer a proof: publish the DNS TXT record or the well-known file, then verify again.'
WHERE "verified_method" = 'agent';

-- Drops its index and foreign key with it.
ALTER TABLE "endpoint_claims" DROP COLUMN "node_id";

-- Status-page custom domains: unique only once verified. "verified_domain" is the custom domain of a
-- page whose TXT record was seen (null otherwise); an unverified "custom_domain" reserves nothing.
ALTER TABLE "status_pages" ADD COLUMN "verified_domain" TEXT;

UPDATE "status_pages" SET "verified_domain" = "custom_domain"
WHERE "domain_verified_at" IS NOT NULL AND "custom_domain" IS NOT NULL;

DROP INDEX "status_pages_custom_domain_key";

CREATE UNIQUE INDEX "status_pages_verified_domain_key" ON "status_pages"("verified_domain");
