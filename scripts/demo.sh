#!/usr/bin/env bash
# Quick start: installs, migrates, builds and starts RPC Pulse with a demo fleet on this machine.
#   npm run demo      web on :3000, ingest on :3003, worker, simnet chain nodes, one agent per node
#                     (one lagging, one stalled, one flooded from a single IP); Ctrl-C stops everything.
# Needs Node.js 20+, PostgreSQL 14+ on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (started if stopped).
# Environment overrides: DATABASE_URL, REDIS_URL, PORT, INGEST_PORT, BETTER_AUTH_SECRET (README, Configuration).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$(repo_root)"

export DATABASE_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/rpcpulse}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export PORT=${PORT:-3000}
export INGEST_PORT=${INGEST_PORT:-3003}
export APP_BASE_URL=${APP_BASE_URL:-http://localhost:$PORT}
export DEMO_MODE=true
export NODE_ENV=production
export LOG_FORMAT=${LOG_FORMAT:-pretty}
# simnet runs on loopback: the prober may reach private addresses in the demo only.
export PROBE_ALLOW_PRIVATE=true
# This machine is offline: probe only the loopback (simnet) endpoints; the public seed list stays
# listed on probation instead of failing DNS look-ups every round. Unset it on a connected host.
export PROBE_ONLY_PRIVATE=${PROBE_ONLY_PRIVATE:-true}
# Tuning advisor: short windows so the flooded demo node's suggestion shows within about two minutes
# and an applied change is verified after five (production defaults: README, Configuration).
export ADVISOR_INTERVAL_MS=${ADVISOR_INTERVAL_MS:-20000}
export ADVISOR_WINDOW_MINUTES=${ADVISOR_WINDOW_MINUTES:-5}
export ADVISOR_CLEAR_MINUTES=${ADVISOR_CLEAR_MINUTES:-10}
export ADVISOR_VERIFY_WINDOW_MINUTES=${ADVISOR_VERIFY_WINDOW_MINUTES:-5}
# Alert notifications go to a local webhook receiver (scripts/demo-webhook-receiver.ts) in the demo.
export NOTIFY_ALLOW_PRIVATE=true
DEMO_WEBHOOK_PORT=${DEMO_WEBHOOK_PORT:-3005}
mkdir -p var
# A stable secret for this checkout's demo; real deployments set BETTER_AUTH_SECRET themselves.
if [ -z "${BETTER_AUTH_SECRET:-}" ]; then
  [ -f var/demo-secret ] || head -c 32 /dev/urandom | base64 | tr -d '\n' >var/demo-secret
  BETTER_AUTH_SECRET=$(cat var/demo-secret)
  export BETTER_AUTH_SECRET
fi
# Likewise the key the worker encrypts notification channel secrets with (required in production mode).
if [ -z "${SECRETS_ENCRYPTION_KEY:-}" ]; then
  [ -f var/demo-secrets-key ] || head -c 32 /dev/urandom | base64 | tr -d '\n' >var/demo-secrets-key
  SECRETS_ENCRYPTION_KEY=$(cat var/demo-secrets-key)
  export SECRETS_ENCRYPTION_KEY
fi

step "1/6 Checking PostgreSQL and Redis"
ensure_services
step "2/6 Installing npm packages"
ensure_node_modules
npm run db:generate --silent >/dev/null
step "3/6 Migrating $DATABASE_URL"
npm run db:migrate --silent
step "4/6 Building the web app and the agent bundle"
npm run build --silent -w @rpcpulse/web
npm run build --silent -w @rpcpulse/agent

step "5/6 Starting simnet, ingest, worker and web"
trap 'step "Stopping"; stop_all' EXIT INT TERM
start_bg simnet node_modules/.bin/tsx packages/simnet/src/cli.ts --config packages/simnet/demo.json
start_bg ingest env INGEST_HOST=127.0.0.1 node_modules/.bin/tsx apps/ingest/src/main.ts
start_bg worker node_modules/.bin/tsx apps/worker/src/main.ts
start_bg web node_modules/.bin/next start apps/web -p "$PORT"
wait_for_url "$APP_BASE_URL/api/health" 120 || { tail -n 40 var/log/web.log >&2; die "web did not start; see var/log/web.log"; }
wait_for_url "http://127.0.0.1:$INGEST_PORT/healthz" 60 || { tail -n 40 var/log/ingest.log >&2; die "ingest did not start; see var/log/ingest.log"; }

step "6/6 Enrolling the demo fleet and starting one agent per node"
node_modules/.bin/tsx scripts/demo-fleet.ts --simnet packages/simnet/demo.json \
  --ingest-url "http://127.0.0.1:$INGEST_PORT/v1/ingest" --out var/demo/agents >&2
for config in var/demo/agents/*/config.json; do
  name=$(basename "$(dirname "$config")")
  start_bg "agent-$name" node apps/agent/dist/rpcpulse-agent.mjs run --config "$config"
done
# The same simnet nodes are listed in the public directory, where the worker probes and ranks them.
node_modules/.bin/tsx scripts/demo-directory.ts --simnet packages/simnet/demo.json
# A public status page of the demo organization: its nodes and a few directory endpoints.
node_modules/.bin/tsx scripts/demo-status.ts
# hive-api (port 18091) gets a connection flood from one address, for the per-IP views and advice:
# from this host's own (non-loopback) address when it has one, so the advisor treats it as a client and
# suggests per-IP limits; loopback sources (127.0.0.0/8) are a local proxy and only get an explanation.
FLOOD_FROM=$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -n1 || true)
start_bg flood node_modules/.bin/tsx scripts/demo-flood.ts --port 18091 --from "${FLOOD_FROM:-127.0.0.77}" --connections 150
# Alert rules the demo fleet trips for real, notifying a signed webhook on a local receiver.
node_modules/.bin/tsx scripts/demo-alerts.ts --webhook-url "http://127.0.0.1:$DEMO_WEBHOOK_PORT/alerts" \
  --secret-file var/demo/webhook-secret
start_bg webhook-receiver node_modules/.bin/tsx scripts/demo-webhook-receiver.ts --port "$DEMO_WEBHOOK_PORT" \
  --secret-file var/demo/webhook-secret

cat >&2 <<MSG

  RPC Pulse is running (demo mode).
    Web:     $APP_BASE_URL   (the fleet fills in within a minute)
    Sign in: demo@rpcpulse.dev / pulse-demo-2026   (this account exists only in demo mode)
    Directory: $APP_BASE_URL/directory   (public, no sign-in; ranked within a few minutes)
    Advisor: $APP_BASE_URL/app/o/demo-fleet/advisor   (hive-api's flood suggestion within ~2 minutes)
    Status:  $APP_BASE_URL/status/demo   (public status page of the demo fleet)
    Alerts:  $APP_BASE_URL/app/o/demo-fleet/alerts   (webhook deliveries: var/log/webhook-receiver.log)
    Health:  $APP_BASE_URL/api/health
    Ingest:  http://127.0.0.1:$INGEST_PORT/v1/ingest
    Logs:    var/log/*.log
  Press Ctrl-C to stop.

MSG
wait
