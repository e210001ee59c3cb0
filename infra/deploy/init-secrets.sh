#!/bin/sh
# Creates the Docker secrets docker-compose.yml reads, once, with random values:
#   secrets/postgres_password, secrets/database_url, secrets/better_auth_secret,
#   secrets/secrets_encryption_key, secrets/grafana_admin_password, secrets/grafana_db_password,
#   secrets/metrics_token
# Existing files are kept (re-running never rotates a secret). Run from the repository root:
#   sh infra/deploy/init-secrets.sh            (SECRETS_DIR=/path overrides ./secrets)
# Compose bind-mounts each file into /run/secrets/ with its host permissions, and the services run
# as different users (node, postgres, grafana), so the files are world-readable (0444) inside a
# directory only its owner can enter (0700): on the host, only that owner reaches them.
set -eu

dir=${SECRETS_DIR:-./secrets}
# POSTGRES_USER / POSTGRES_DB from the environment, else from .env, else the compose defaults.
read_env() {
  eval "current=\${$1:-}"
  if [ -z "$current" ] && [ -f .env ]; then
    current=$(sed -n "s/^$1=//p" .env | tail -n 1)
  fi
  printf '%s' "${current:-$2}"
}
pg_user=$(read_env POSTGRES_USER rpcpulse)
pg_db=$(read_env POSTGRES_DB rpcpulse)

random() {
  # $1 bytes of randomness as letters and digits only (safe inside a URL and a shell word).
  head -c 256 /dev/urandom | od -An -v -tx1 | tr -d ' \n' | cut -c "1-$(($1 * 2))"
}

umask 077
mkdir -p "$dir"
chmod 700 "$dir"

write() {
  if [ -s "$dir/$1" ]; then
    echo "kept    $dir/$1"
    return
  fi
  printf '%s\n' "$2" >"$dir/$1"
  chmod 444 "$dir/$1"
  echo "created $dir/$1"
}

write postgres_password "$(random 24)"
pg_password=$(tr -d '\n' <"$dir/postgres_password")
write database_url "postgresql://$pg_user:$pg_password@timescaledb:5432/$pg_db"
write better_auth_secret "$(random 32)"
write secrets_encryption_key "$(random 32)"
write grafana_admin_password "$(random 16)"
write grafana_db_password "$(random 24)"
write metrics_token "$(random 32)"
