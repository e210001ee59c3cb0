-- Organization API keys: automation credentials of an organization (not of a user), accepted as
-- `Authorization: Bearer rpk_<prefix>_<secret>` on /api/orgs/<org>/... routes. Only the public prefix
-- and the SHA-256 of the secret are stored; the plaintext is shown once, at creation.
-- Raw SQL only (packages/db/src/orgs/api-keys.ts), no Prisma model: the same in both storage modes.
CREATE TABLE api_keys (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    scope text NOT NULL CHECK (scope IN ('read', 'write')),
    -- 16 hex characters after "rpk_": finds the row, shown in lists for recognition.
    prefix text NOT NULL UNIQUE CHECK (prefix ~ '^[0-9a-f]{16}$'),
    -- "sha256:<hex>" of the secret part.
    secret_hash text NOT NULL,
    -- User id of the creator (kept for the audit trail; the key outlives the creator's membership).
    created_by text,
    created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Written at most once a minute per key.
    last_used_at timestamptz(3),
    expires_at timestamptz(3),
    revoked_at timestamptz(3),
    PRIMARY KEY (id),
    CHECK (expires_at IS NULL OR expires_at > created_at)
);
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id, created_at DESC);
