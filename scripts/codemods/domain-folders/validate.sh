#!/usr/bin/env bash
# Validation of a tree after restructure.mjs: each heavy step under the shared bench lock, one at a time.
# Usage: bash scripts/codemods/domain-folders/validate.sh <repo-dir> <log-dir> [steps...]
set -u
repo=$1; logs=$2; shift 2
steps=${*:-"typecheck lint lintrules db services web ingest worker build"}
mkdir -p "$logs"; cd "$repo"
export NODE_ENV=test LOG_LEVEL=warn
run() { local name=$1; shift; local t0=$(date +%s)
  flock /tmp/rpcpulse-bench.lock "$@" > "$logs/$name.log" 2>&1; local rc=$?
  echo "$(date -u +%H:%M:%S) $name rc=$rc $(( $(date +%s) - t0 ))s" | tee -a "$logs/summary.txt"; }
for s in $steps; do case $s in
  typecheck) run typecheck npm run typecheck ;;
  lint) run lint npm run lint ;;
  lintrules) run lintrules node --import tsx --test --test-force-exit scripts/lint-rules.test.ts ;;
  db) run db npm test -w @rpcpulse/db ;;
  services) run services npm test -w @rpcpulse/services ;;
  web) run web npm test -w @rpcpulse/web ;;
  ingest) run ingest npm test -w apps/ingest ;;
  worker) run worker npm test -w apps/worker ;;
  build) run build npm run build -w apps/web ;;
esac; done
