#!/usr/bin/env bash
# The one command that runs every test: static checks, unit and integration suites against the real
# PostgreSQL and Redis (and TimescaleDB in-process), then the built app end to end in Chromium.
# Usage: npm test            (everything)
#        npm test -- --fast  (skip the build and the e2e suite)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$(repo_root)"

FAST=false
for arg in "$@"; do
  case "$arg" in
    --fast) FAST=true ;;
    *) die "unknown option $arg (known: --fast)" ;;
  esac
done

export NODE_ENV=test LOG_LEVEL=${LOG_LEVEL:-warn}
ensure_services
ensure_node_modules

step "Generating the Prisma client"
npm run db:generate --silent >/dev/null

step "Lint: eslint, prettier, package boundaries"
npx eslint . --max-warnings=200
npx prettier --check . --log-level=warn
npx depcruise --config .dependency-cruiser.cjs apps packages --output-type err

step "Typecheck"
npm run typecheck --silent

step "Schema agreement: prisma/schema vs prisma/migrations"
npm run db:check --silent -w @rpcpulse/db

step "docker-compose.yml against the Compose Specification"
npm run validate:compose --silent

node scripts/run-suites.mjs reset
step "Unit and integration suites"
node scripts/run-suites.mjs workspaces || true

if [ "$FAST" = false ]; then
  bash scripts/e2e.sh || true
fi

step "Summary"
node scripts/run-suites.mjs summary
