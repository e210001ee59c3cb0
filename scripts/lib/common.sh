# Shared shell helpers for scripts/demo.sh, scripts/test.sh and .ci/run. Source, don't execute.
# Progress lines go to stderr as "==> step" so long commands show where they are.

step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
info() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

repo_root() { cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd; }

# Wait until a URL answers (any HTTP status below 500), or fail after $2 seconds.
wait_for_url() {
  local url=$1 timeout=${2:-60} start
  start=$(date +%s)
  until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
    if (( $(date +%s) - start > timeout )); then return 1; fi
    sleep 0.5
  done
}

# PostgreSQL and Redis must answer on loopback; start them with the machine's own commands if not.
ensure_services() {
  if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    step "PostgreSQL is not answering on 127.0.0.1:5432: starting it"
    if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    fi
    for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
    pg_isready -h 127.0.0.1 -p 5432 -q || die "PostgreSQL 14+ must run on 127.0.0.1:5432 (see README, Requirements)"
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    step "Redis is not answering on 127.0.0.1:6379: starting it"
    if command -v redis-server >/dev/null; then
      mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
      redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    fi
    for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || die "Redis 6.2+ must run on 127.0.0.1:6379 (see README, Requirements)"
  fi
}

# npm ci when node_modules is missing or older than the lock file; quiet otherwise.
ensure_node_modules() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    step "Installing npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
  else
    info "npm packages are up to date"
  fi
}

# Start a background process whose output goes to var/log/<name>.log; remembers its pid for stop_all.
PIDS=()
start_bg() {
  local name=$1; shift
  mkdir -p var/log
  ( exec "$@" ) >"var/log/$name.log" 2>&1 &
  PIDS+=($!)
  info "$name started (pid $!, log var/log/$name.log)"
}

stop_all() {
  local pid
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill -TERM -- "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
  done
  PIDS=()
}
