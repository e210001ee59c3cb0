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

step "Building the production artefacts: web (next build, standalone), worker and ingest bundles, agent"
npm run build --silent -w @rpcpulse/web
npm run build --silent -w @rpcpulse/worker
npm run build --silent -w @rpcpulse/ingest
npm run build --silent -w @rpcpulse/agent
# Completed by the web build (scripts/prepare-web-standalone.mjs): static files, public/, Prisma's engine files.
WEB_STANDALONE=apps/web/.next/standalone/apps/web

trap stop_all EXIT
# ingest, worker and web run as the images run them: compiled JavaScript with plain node, no tsx
# (simnet, a test tool, stays on tsx). The standalone server changes into its own folder, so the
# agent downloads are named explicitly; it binds HOSTNAME ("::" answers IPv4 and IPv6 like next start).
step "Starting simnet, ingest, worker and web on :$E2E_PORT (production builds, plain node)"
start_bg e2e-simnet node_modules/.bin/tsx packages/simnet/src/cli.ts --config packages/simnet/demo.json
start_bg e2e-ingest node apps/ingest/dist/ingest.mjs
start_bg e2e-worker node apps/worker/dist/worker.mjs
start_bg e2e-web env HOSTNAME=:: AGENT_DOWNLOADS_DIR="$PWD/apps/agent/dist" node "$WEB_STANDALONE/server.js"
WEB_PID=${PIDS[-1]}
wait_for_url "$APP_BASE_URL/api/health" 90 || { tail -n 50 var/log/e2e-web.log >&2; die "web did not answer on $APP_BASE_URL"; }
wait_for_url "http://127.0.0.1:$INGEST_PORT/healthz" 60 || { tail -n 50 var/log/e2e-ingest.log >&2; die "ingest did not start"; }

step "Playwright (Chromium)"
node scripts/run-suites.mjs e2e

# The web server must stop by itself on SIGTERM (docker stop), well within the stop grace period. Next's
# server closes, then exits 143 (128 + SIGTERM) on purpose; any other code, or no exit, is a failure.
step "Web production server: SIGTERM ends it cleanly"
kill -TERM "$WEB_PID"
# A watchdog SIGKILLs it after 20 s (exit 137, a failure below); the server is this shell's child, so
# `wait` gets its exit code.
( sleep 20 && kill -KILL "$WEB_PID" 2>/dev/null ) &
watchdog=$!
web_rc=0
wait "$WEB_PID" || web_rc=$?
kill "$watchdog" 2>/dev/null || true
case "$web_rc" in
  0 | 143) info "web exited $web_rc after SIGTERM" ;;
  *) tail -n 20 var/log/e2e-web.log >&2; die "the web server exited $web_rc on SIGTERM" ;;
esac
