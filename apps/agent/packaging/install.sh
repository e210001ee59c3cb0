#!/bin/sh
# RPC Pulse agent installer (POSIX sh). Served by the RPC Pulse web app at /install.sh:
#
#   curl -fsSL https://<app>/install.sh | sudo sh -s -- --token rpa_... --name <node> --config '<json>'
#
# Downloads the self-contained agent for this machine (uname -m: x86_64 or aarch64; no Node.js needed)
# from <app>/downloads/, checks its SHA-256 against <app>/downloads/SHA256SUMS, installs it as
# /usr/local/bin/rpcpulse-agent, writes /etc/rpcpulse-agent/<name>.json and <name>.token (root, 0600),
# discovers the node process, data directory and public ports, installs the hardened template unit
# rpcpulse-agent@.service and starts rpcpulse-agent@<name>. Running it again upgrades in place; with
# only --token it rotates that node's token; without any node option it upgrades the binary and unit
# and restarts the running instances. --uninstall removes everything (or one node with --name).
# --prefix DIR writes everything under DIR and runs no systemctl (for packaging and tests).
# The whole script is one brace group: sh reads all of it before running any of it, so a piped
# download that is cut short runs nothing, and an early exit (--uninstall) never closes the pipe
# while curl is still writing (curl: (23) Failed writing body).
{
set -eu

BASE_URL='__RPCPULSE_BASE_URL__'

PROG=install.sh
say() { printf '%s\n' "$*"; }
step() { printf '==> %s\n' "$*"; }
die() {
  printf '%s: %s\n' "$PROG" "$*" >&2
  exit 1
}
usage() {
  cat <<'EOF'
Usage: install.sh [options]          (as root; piped: curl -fsSL <app>/install.sh | sudo sh -s -- [options])

Node (one config per node; several nodes per host, one unit instance each):
  --name <name>         instance name: rpcpulse-agent@<name>, /etc/rpcpulse-agent/<name>.json (default: default)
  --token <rpa_...>     agent token of this node (or --token-file <path>)
  --config '<json>'     agent config as shown on the "Add node" page ({"family": ..., "rpcUrl": ..., ...})
  --family <f> --rpc-url <url> --ingest-url <url> --node-id <id>
                        the same config as separate options (instead of --config)
Install:
  --base-url <url>      RPC Pulse app serving /downloads (default: the app this script came from)
  --prefix <dir>        write under <dir> only, run no systemctl (packaging, tests)
  --no-start            install and enable, but do not start or restart anything
  --uninstall           remove the agent, its units, configs, tokens and state (only <name> with --name)
  -h, --help            this help
EOF
}

NAME=
NAME_GIVEN=false
TOKEN=
TOKEN_FILE=
CONFIG=
FAMILY=
RPC_URL=
INGEST_URL=
NODE_ID=
PREFIX=
UNINSTALL=false
START=true

need_value() {
  [ "$2" -gt 1 ] || die "$1 needs a value"
}

while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --*=*)
      val=${opt#*=}
      opt=${opt%%=*}
      shift
      set -- "$opt" "$val" "$@"
      continue
      ;;
  esac
  case $opt in
    --name) need_value "$opt" $#; NAME=$2; NAME_GIVEN=true; shift 2 ;;
    --token) need_value "$opt" $#; TOKEN=$2; shift 2 ;;
    --token-file) need_value "$opt" $#; TOKEN_FILE=$2; shift 2 ;;
    --config) need_value "$opt" $#; CONFIG=$2; shift 2 ;;
    --family) need_value "$opt" $#; FAMILY=$2; shift 2 ;;
    --rpc-url) need_value "$opt" $#; RPC_URL=$2; shift 2 ;;
    --ingest-url) need_value "$opt" $#; INGEST_URL=$2; shift 2 ;;
    --node-id) need_value "$opt" $#; NODE_ID=$2; shift 2 ;;
    --base-url) need_value "$opt" $#; BASE_URL=$2; shift 2 ;;
    --prefix) need_value "$opt" $#; PREFIX=$2; shift 2 ;;
    --uninstall) UNINSTALL=true; shift ;;
    --no-start) START=false; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $opt (see --help)" ;;
  esac
done

# ---- validation (every message names the option) ----
[ -n "$NAME" ] || NAME=default
case $NAME in
  [A-Za-z0-9]*) ;;
  *) die "--name: must start with a letter or digit, got '$NAME'" ;;
esac
case $NAME in
  *[!A-Za-z0-9_.-]*) die "--name: letters, digits, '.', '_' and '-' only, got '$NAME'" ;;
esac
[ ${#NAME} -le 64 ] || die "--name: at most 64 characters"

if [ -n "$TOKEN_FILE" ]; then
  [ -z "$TOKEN" ] || die "--token-file: give --token or --token-file, not both"
  [ -r "$TOKEN_FILE" ] || die "--token-file: cannot read $TOKEN_FILE"
  TOKEN=$(tr -d ' \t\r\n' <"$TOKEN_FILE")
fi
if [ -n "$TOKEN" ]; then
  case $TOKEN in
    rpa_*) ;;
    *) die "--token: an agent token starts with rpa_ (copy it from the \"Add node\" page)" ;;
  esac
  case $TOKEN in
    *[!A-Za-z0-9_-]*) die "--token: unexpected characters (letters, digits, '_' and '-' only)" ;;
  esac
fi

json_value() {
  # $1 option name, $2 value: no quote, backslash or control character (kept out of the JSON as is).
  case $2 in
    *[\"\\]* | *[![:print:]]*) die "$1: quotes, backslashes and control characters are not allowed" ;;
  esac
}
if [ -n "$FAMILY$RPC_URL$INGEST_URL$NODE_ID" ]; then
  [ -z "$CONFIG" ] || die "--config: give --config or --family/--rpc-url/--ingest-url/--node-id, not both"
  [ -n "$FAMILY" ] || die "--family: required with --rpc-url/--ingest-url/--node-id"
  CONFIG="{\"family\":\"$FAMILY\""
  for pair in "rpcUrl:$RPC_URL:--rpc-url" "ingestUrl:$INGEST_URL:--ingest-url" "nodeId:$NODE_ID:--node-id"; do
    key=${pair%%:*}
    rest=${pair#*:}
    flag=${rest##*:}
    value=${rest%:*}
    [ -z "$value" ] && continue
    json_value "$flag" "$value"
    CONFIG="$CONFIG,\"$key\":\"$value\""
  done
  json_value --family "$FAMILY"
  CONFIG="$CONFIG}"
fi
if [ -n "$CONFIG" ]; then
  case $CONFIG in
    \{*\}) ;;
    *) die "--config: expected a JSON object like '{\"family\":\"hive\",...}' (quote it in single quotes)" ;;
  esac
fi

if [ -n "$PREFIX" ]; then
  case $PREFIX in
    /*) ;;
    *) PREFIX=$(pwd)/$PREFIX ;;
  esac
  PREFIX=${PREFIX%/}
  [ -n "$PREFIX" ] || die "--prefix: / is not a prefix (leave --prefix out to install for real)"
elif [ "$(id -u)" != 0 ]; then
  die "run as root: curl -fsSL <app>/install.sh | sudo sh -s -- ..."
fi

BIN_PATH=/usr/local/bin/rpcpulse-agent
UNIT_NAME=rpcpulse-agent@.service
INSTANCE=rpcpulse-agent@$NAME.service
BIN=$PREFIX$BIN_PATH
UNIT_DIR=$PREFIX/etc/systemd/system
WANTS_DIR=$UNIT_DIR/multi-user.target.wants
ETC=$PREFIX/etc/rpcpulse-agent
STATE=$PREFIX/var/lib/rpcpulse-agent
PRIVATE_STATE=$PREFIX/var/lib/private/rpcpulse-agent
DONE=

did() {
  DONE="$DONE  - $*
"
  say "    $*"
}

use_systemctl() {
  [ -z "$PREFIX" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1
}

from_package() {
  [ -z "$PREFIX" ] && command -v dpkg-query >/dev/null 2>&1 &&
    [ "$(dpkg-query -W -f='${Status}' rpcpulse-agent 2>/dev/null || true)" = "install ok installed" ]
}

remove_instance() {
  # $1 instance name: stop, disable, and remove its config, token and state.
  inst=rpcpulse-agent@$1.service
  if use_systemctl; then
    systemctl disable --now "$inst" >/dev/null 2>&1 || true
  fi
  [ -L "$WANTS_DIR/$inst" ] && rm -f "$WANTS_DIR/$inst"
  rm -f "$ETC/$1.json" "$ETC/$1.token"
  rm -rf "${STATE:?}/$1" "${PRIVATE_STATE:?}/$1"
  did "removed node $1 ($inst, $ETC/$1.json, $ETC/$1.token, $STATE/$1)"
}

if [ "$UNINSTALL" = true ]; then
  step "Uninstalling rpcpulse-agent${PREFIX:+ under $PREFIX}"
  if [ "$NAME_GIVEN" = true ]; then
    remove_instance "$NAME"
  else
    names=
    for f in "$ETC"/*.json "$WANTS_DIR"/rpcpulse-agent@*.service; do
      [ -e "$f" ] || [ -L "$f" ] || continue
      n=${f##*/}
      n=${n%.json}
      n=${n#rpcpulse-agent@}
      n=${n%.service}
      case " $names " in *" $n "*) ;; *) names="$names $n" ;; esac
    done
    for n in $names; do remove_instance "$n"; done
    if from_package; then
      did "kept /usr/bin/rpcpulse-agent and its unit: they belong to the rpcpulse-agent package (apt purge rpcpulse-agent)"
    else
      rm -f "$UNIT_DIR/$UNIT_NAME" "$BIN"
      did "removed $BIN_PATH and $UNIT_DIR/$UNIT_NAME"
    fi
    rmdir "$STATE" "$PRIVATE_STATE" 2>/dev/null || true
    rmdir "$ETC" 2>/dev/null || did "kept $ETC: it holds files this installer did not write"
  fi
  if use_systemctl; then systemctl daemon-reload; fi
  say ""
  say "rpcpulse-agent: uninstalled. What was done:"
  printf '%s' "$DONE"
  exit 0
fi

# ---- what to install ----
case $(uname -m) in
  x86_64 | amd64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) die "unsupported architecture $(uname -m): the self-contained agent exists for x86_64 and aarch64 (with Node.js 20+, run rpcpulse-agent.mjs from $BASE_URL/downloads/ instead)" ;;
esac
case $BASE_URL in
  http://* | https://*) BASE_URL=${BASE_URL%/} ;;
  *) die "--base-url: give the RPC Pulse app's URL (this copy of install.sh was not served by the app)" ;;
esac

fetch() {
  # $1 URL, $2 output file
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 3 --retry-delay 1 -o "$2" "$1" || die "download failed: $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "download failed: $1"
  else
    die "neither curl nor wget is installed"
  fi
}
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | cut -d' ' -f1
  else
    die "no SHA-256 tool (sha256sum, shasum or openssl) found"
  fi
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rpcpulse-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM HUP

# $1 file name from SHA256SUMS: download it (URL carries the hash, so caches key on the content) and verify.
fetch_verified() {
  want=$(awk -v f="$1" '$2 == f { print $1 }' "$TMP/SHA256SUMS")
  [ -n "$want" ] || die "$1 is not listed in $BASE_URL/downloads/SHA256SUMS"
  fetch "$BASE_URL/downloads/$1?sha256=$want" "$TMP/$1"
  got=$(sha256_of "$TMP/$1")
  if [ "$got" != "$want" ]; then
    die "checksum mismatch for $1: SHA256SUMS says $want, the download is $got. Nothing was installed (a proxy or a half-finished deploy may serve a stale file; try again)."
  fi
}

step "Downloading the agent for linux-$ARCH from $BASE_URL/downloads/"
fetch "$BASE_URL/downloads/SHA256SUMS" "$TMP/SHA256SUMS"
RAW=$(awk -v a="-linux-$ARCH" '{ n = $2; if (substr(n, length(n) - length(a) + 1) == a && index(n, "rpcpulse-agent-") == 1) print n }' "$TMP/SHA256SUMS" | head -n 1)
[ -n "$RAW" ] || die "no linux-$ARCH agent listed in $BASE_URL/downloads/SHA256SUMS"
VERSION=${RAW#rpcpulse-agent-}
VERSION=${VERSION%-linux-"$ARCH"}
if from_package; then
  BIN=/usr/bin/rpcpulse-agent
  say "    the rpcpulse-agent package is installed: using $BIN and its unit (upgrade it with apt)"
  cp "$BIN" "$TMP/rpcpulse-agent"
else
  if command -v gzip >/dev/null 2>&1 && grep -q "  $RAW.gz\$" "$TMP/SHA256SUMS"; then
    fetch_verified "$RAW.gz"
    gzip -dc "$TMP/$RAW.gz" >"$TMP/$RAW" || die "$RAW.gz: cannot decompress"
    want=$(awk -v f="$RAW" '$2 == f { print $1 }' "$TMP/SHA256SUMS")
    got=$(sha256_of "$TMP/$RAW")
    [ "$got" = "$want" ] || die "checksum mismatch for $RAW (after gunzip): SHA256SUMS says $want, got $got. Nothing was installed."
  else
    fetch_verified "$RAW"
  fi
  fetch_verified "$UNIT_NAME"
  say "    $RAW: SHA-256 $(awk -v f="$RAW" '$2 == f { print $1 }' "$TMP/SHA256SUMS") verified"
  mv "$TMP/$RAW" "$TMP/rpcpulse-agent"
  chmod 0755 "$TMP/rpcpulse-agent"
fi
RUNS=$("$TMP/rpcpulse-agent" version 2>&1) ||
  die "the downloaded agent does not run on this host ($RUNS). It needs glibc 2.28+ and libstdc++ (Debian 10+, Ubuntu 20.04+, RHEL 8+). Nothing was installed."

# ---- the node's config, checked (and completed by discovery) before anything is installed ----
CFG_FILE=$ETC/$NAME.json
TOKEN_PATH=$ETC/$NAME.token
NODE_CHANGE=false
if [ -n "$CONFIG" ]; then
  [ -n "$TOKEN" ] || [ -f "$TOKEN_PATH" ] || die "--token: required for a new node (copy it from the \"Add node\" page)"
  printf '%s\n' "$CONFIG" >"$TMP/config.json"
  NODE_CHANGE=true
elif [ -n "$TOKEN" ]; then
  [ -f "$CFG_FILE" ] || die "--config: node $NAME has no config yet ($CFG_FILE): give --config (or --family ...) with --token"
  NODE_CHANGE=true
fi
if [ -n "$CONFIG" ]; then
  step "Checking the config of node $NAME and discovering the node process"
  # Exit 2 = the agent rejected a field; its message names it.
  if ! "$TMP/rpcpulse-agent" discover --config "$TMP/config.json" --write >"$TMP/discover.txt" 2>&1; then
    sed 's/^/    /' "$TMP/discover.txt" >&2
    die "--config: the agent rejected this config (above). Nothing was installed."
  fi
  sed 's/^/    /' "$TMP/discover.txt"
fi

# ---- install ----
step "Installing rpcpulse-agent $VERSION${PREFIX:+ under $PREFIX}"
umask 022
if [ "$BIN" != /usr/bin/rpcpulse-agent ]; then
  mkdir -p "${BIN%/*}" "$UNIT_DIR"
  if [ -f "$BIN" ] && [ "$(sha256_of "$BIN")" = "$(sha256_of "$TMP/rpcpulse-agent")" ]; then
    did "$BIN_PATH is already $VERSION"
  else
    was=
    if [ -x "$BIN" ]; then was=$("$BIN" version 2>/dev/null || true); fi
    cp "$TMP/rpcpulse-agent" "$BIN.new.$$"
    chmod 0755 "$BIN.new.$$"
    mv -f "$BIN.new.$$" "$BIN"
    if [ -n "$was" ]; then did "upgraded $BIN_PATH from $was to $VERSION"; else did "installed $BIN_PATH $VERSION"; fi
  fi
  cp "$TMP/$UNIT_NAME" "$UNIT_DIR/.$UNIT_NAME.new.$$"
  chmod 0644 "$UNIT_DIR/.$UNIT_NAME.new.$$"
  mv -f "$UNIT_DIR/.$UNIT_NAME.new.$$" "$UNIT_DIR/$UNIT_NAME"
  did "installed the hardened template unit $UNIT_DIR/$UNIT_NAME"
fi

if [ "$NODE_CHANGE" = true ]; then
  umask 077
  mkdir -p "$ETC"
  chmod 0700 "$ETC"
  if [ -n "$CONFIG" ]; then
    cp "$TMP/config.json" "$ETC/.$NAME.json.new"
    chmod 0600 "$ETC/.$NAME.json.new"
    mv -f "$ETC/.$NAME.json.new" "$CFG_FILE"
    did "wrote $CFG_FILE (0600)"
  fi
  if [ -n "$TOKEN" ]; then
    printf '%s\n' "$TOKEN" >"$ETC/.$NAME.token.new"
    chmod 0600 "$ETC/.$NAME.token.new"
    mv -f "$ETC/.$NAME.token.new" "$TOKEN_PATH"
    did "wrote $TOKEN_PATH (0600)"
  fi
  if [ -z "$PREFIX" ]; then chown -R root:root "$ETC"; fi
  umask 022
  mkdir -p "$WANTS_DIR"
fi

# ---- systemd ----
if use_systemctl; then
  systemctl daemon-reload
  if [ "$NODE_CHANGE" = true ]; then
    systemctl enable "$INSTANCE" >/dev/null 2>&1
    did "enabled $INSTANCE (starts at boot)"
    if [ "$START" = true ]; then
      systemctl restart "$INSTANCE"
      sleep 2
      if systemctl is-active --quiet "$INSTANCE"; then
        did "started $INSTANCE"
      else
        did "$INSTANCE did not stay up: journalctl -u $INSTANCE -n 50"
      fi
    fi
  elif [ "$START" = true ]; then
    systemctl try-restart 'rpcpulse-agent@*.service' && did "restarted the running rpcpulse-agent@ instances"
  fi
  if systemctl is-enabled --quiet rpcpulse-agent.service 2>/dev/null; then
    say "    note: the older single unit rpcpulse-agent.service is enabled too; if it runs the same node, stop it:"
    say "          systemctl disable --now rpcpulse-agent.service"
  fi
elif [ "$NODE_CHANGE" = true ]; then
  # What `systemctl enable` does for this unit (WantedBy=multi-user.target), without systemctl.
  ln -sf "/etc/systemd/system/$UNIT_NAME" "$WANTS_DIR/$INSTANCE"
  if [ -n "$PREFIX" ]; then
    did "enabled $INSTANCE under $PREFIX (no systemctl with --prefix)"
  else
    did "enabled $INSTANCE; systemd is not running here, so nothing was started"
  fi
fi

say ""
say "rpcpulse-agent $VERSION: done. What was done:"
printf '%s' "$DONE"
if [ "$NODE_CHANGE" = true ]; then
  say ""
  say "Next: the node shows \"Waiting for first batch\" until the first batch arrives (about 10 s)."
  say "  status:  systemctl status $INSTANCE      logs: journalctl -u $INSTANCE -f"
  say "  checks:  ${BIN#"$PREFIX"} doctor --name $NAME   (what this host lets the agent read, and fixes)"
fi
}
