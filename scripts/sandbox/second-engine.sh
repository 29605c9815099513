#!/usr/bin/env bash
# Starts a second Docker engine on this machine, reachable only over loopback TCP, for the remote-engine (copy mode)
# tests and bench; copies the sandbox image into it. Idempotent: an engine already answering is kept.
# Tests find it through MANUS_TEST_REMOTE_DOCKER=tcp://127.0.0.1:$PORT (printed at the end). Needs root.
#   PORT (2376), IMAGE (manus-sandbox:latest), STATE (/var/lib/manus-engine2)
set -euo pipefail

PORT="${PORT:-2376}"
IMAGE="${IMAGE:-manus-sandbox:latest}"
STATE="${STATE:-/var/lib/manus-engine2}"
BRIDGE=d2br0
BRIDGE_ADDRESS=10.99.0.1/24
HOST="tcp://127.0.0.1:${PORT}"
LOG="$STATE/dockerd.log"
WAIT_SECONDS=60

fail() {
  echo "second engine: $1" >&2
  [ -f "$LOG" ] && tail -n 30 "$LOG" >&2
  exit 1
}

answers() { docker -H "$HOST" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

[ "$(id -u)" = 0 ] || fail "must run as root (it starts dockerd and makes a network bridge)"
command -v dockerd >/dev/null || fail "dockerd is not installed"
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 || fail "the first engine (default socket) is not running"
mkdir -p "$STATE"

if ! answers; then
  # its own bridge: --bridge=none would make this engine delete the first engine's docker0
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add name "$BRIDGE" type bridge || fail "could not create the bridge $BRIDGE"
  fi
  ip addr show dev "$BRIDGE" | grep -q "${BRIDGE_ADDRESS%/*}" || ip addr add "$BRIDGE_ADDRESS" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  nohup dockerd \
    --data-root "$STATE/data" \
    --exec-root "$STATE/exec" \
    --pidfile "$STATE/dockerd.pid" \
    -H "$HOST" \
    --containerd-namespace manus-engine2 \
    --containerd-plugins-namespace manus-engine2-plugins \
    --iptables=false --ip6tables=false \
    --bridge="$BRIDGE" \
    >"$LOG" 2>&1 &
  for _ in $(seq 1 "$WAIT_SECONDS"); do
    answers && break
    sleep 1
  done
  answers || fail "dockerd did not answer on $HOST within ${WAIT_SECONDS}s"
fi

wanted="$(docker image inspect "$IMAGE" --format '{{.Id}}' 2>/dev/null)" || fail "$IMAGE is not on the first engine; build it first"
present="$(docker -H "$HOST" image inspect "$IMAGE" --format '{{.Id}}' 2>/dev/null || true)"
if [ "$present" != "$wanted" ]; then
  echo "second engine: copying $IMAGE"
  docker save "$IMAGE" | docker -H "$HOST" load >/dev/null || fail "could not copy $IMAGE into the second engine"
fi

echo "MANUS_TEST_REMOTE_DOCKER=$HOST"
