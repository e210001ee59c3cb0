#!/usr/bin/env bash
# Builds the web app, starts the stack (simnet, worker, web) against a fresh database, and runs the
# Playwright suite in Debian's Chromium. Called by scripts/test.sh; can be run alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$(repo_root)"
# Recorded before anything can fail, so the summary tells "started, never reached Playwright" apart.
node scripts/run-suites.mjs e2e-started

E2E_DB=${E2E_DB:-rpcpulse_e2e}
E2E_PORT=${E2E_PORT:-3100}
export DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$E2E_DB"
export QUEUE_PREFIX="rpcpulse-e2e-$$"
export APP_BASE_URL="http://localhost:$E2E_PORT"
export PORT=$E2E_PORT
export BETTER_AUTH_SECRET=${BETTER_AUTH_SECRET:-e2e-secret-0123456789abcdef0123456789abcdef}
# The worker encrypts notification channel secrets; production mode requires the key.
export SECRETS_ENCRYPTION_KEY=${SECRETS_ENCRYPTION_KEY:-e2e-secrets-key-0123456789abcdef0123456789abcdef}
export WORKER_HEALTH_PORT=${WORKER_HEALTH_PORT:-3199}
export INGEST_PORT=${INGEST_PORT:-3103}
export INGEST_HOST=127.0.0.1
export INGEST_PUBLIC_URL="http://127.0.0.1:$INGEST_PORT/v1/ingest"
# simnet runs on loopback: the prober may reach private addresses in tests only.
export PROBE_ALLOW_PRIVATE=true
# This machine is offline: probe only the loopback (simnet) endpoints; the public seed list stays
# listed on probation instead of failing DNS look-ups every round. Unset it on a connected host.
export PROBE_ONLY_PRIVATE=${PROBE_ONLY_PRIVATE:-true}
export E2E_BASE_URL=$APP_BASE_URL
# Alerting: evaluate every 2 s; deliveries may reach the spec's loopback webhook receiver.
export ALERT_EVALUATE_INTERVAL_MS=2000
export NOTIFY_ALLOW_PRIVATE=true
# Account mail (password reset, verification, invitations) goes to the real SMTP server that
# Playwright's global setup (e2e/global-setup.ts) starts on this port; specs read it from there.
export E2E_SMTP_PORT=${E2E_SMTP_PORT:-3125}
export SMTP_URL="smtp://127.0.0.1:$E2E_SMTP_PORT"
export SMTP_FROM="RPC Pulse e2e <accounts@e2e.rpcpulse.dev>"
# Tuning advisor: sweep every 5 s over a 1-minute window, verify applied changes on 1-minute
# before/after windows (e2e/specs/advisor.spec.ts waits for a whole window of flood first).
export ADVISOR_INTERVAL_MS=5000
export ADVISOR_WINDOW_MINUTES=1
export ADVISOR_CLEAR_MINUTES=3
export ADVISOR_VERIFY_WINDOW_MINUTES=1
export NODE_ENV=production

[ -x /usr/bin/chromium ] || die "Chromium is missing: apt-get install -y chromium (see .ci/run)"

step "Fresh database $E2E_DB"
psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $E2E_DB WITH (FORCE)" postgres
npm run db:migrate --silent

step "Building the web app (next build) and the agent bundle"
npm run build --silent -w @rpcpulse/web
npm run build --silent -w @rpcpulse/agent

trap stop_all EXIT
step "Starting simnet, ingest, worker and web on :$E2E_PORT"
start_bg e2e-simnet node_modules/.bin/tsx packages/simnet/src/cli.ts --config packages/simnet/demo.json
start_bg e2e-ingest node_modules/.bin/tsx apps/ingest/src/main.ts
start_bg e2e-worker node_modules/.bin/tsx apps/worker/src/main.ts
start_bg e2e-web node_modules/.bin/next start apps/web -p "$E2E_PORT"
wait_for_url "$APP_BASE_URL/api/health" 90 || { tail -n 50 var/log/e2e-web.log >&2; die "web did not answer on $APP_BASE_URL"; }
wait_for_url "http://127.0.0.1:$INGEST_PORT/healthz" 60 || { tail -n 50 var/log/e2e-ingest.log >&2; die "ingest did not start"; }

step "Playwright (Chromium)"
node scripts/run-suites.mjs e2e
