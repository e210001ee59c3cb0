#!/usr/bin/env bash
# The one command that runs every test: static checks, unit and integration suites against the real
# PostgreSQL and Redis (and TimescaleDB in-process), then the built app end to end in Chromium.
# Usage: npm test            (everything; fails unless the e2e suite ran and passed)
#        npm test -- --fast  (skip the build and the e2e suite; the last line says so)
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

step "Lint rules fire: deliberate violations (scripts/lint-fixtures) must fail them"
node --import tsx --import @rpcpulse/config/test-exit-guard --test --test-reporter=dot scripts/lint-rules.test.ts

step "The test runner fails what it cannot count: a file that does not exit, a suite short of its tests"
node --import tsx --import @rpcpulse/config/test-exit-guard --test --test-reporter=dot scripts/run-suites.test.ts

step "Typecheck"
npm run typecheck --silent

step "Schema agreement: prisma/schema vs prisma/migrations"
npm run db:check --silent -w @rpcpulse/db

step "docker-compose.yml against the Compose Specification"
npm run validate:compose --silent

# The tally (var/test-tally.json) decides the outcome: failed tests, a workspace suite without a
# result, and, unless --fast, an e2e suite that did not run and pass all fail the summary.
if [ "$FAST" = true ]; then node scripts/run-suites.mjs reset --fast; else node scripts/run-suites.mjs reset; fi
step "Unit and integration suites"
# Not fatal here: failures are in the tally, and suites that never reported fail the summary.
node scripts/run-suites.mjs workspaces || true

if [ "$FAST" = false ]; then
  e2e_rc=0
  bash scripts/e2e.sh || e2e_rc=$?
  node scripts/run-suites.mjs e2e-exit "$e2e_rc"
fi

step "Summary"
node scripts/run-suites.mjs summary
