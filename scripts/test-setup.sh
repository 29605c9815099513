#!/usr/bin/env bash
# What `npm test` needs besides Node (npm runs this first, as `pretest`): system tools, a Docker engine holding the
# sandbox image, and a second engine for the remote-engine tests. As root on Debian/Ubuntu it installs and starts what
# is missing; anywhere else, or with --check, it lists each missing part with the command that provides it and exits 1
# before any test runs. It then writes the second engine's address to $SETUP_ENV, which vitest.config.ts passes on.
# Usage: test-setup.sh [--check]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SETUP_ENV=node_modules/.cache/manus-test-setup.env
IMAGE=manus-sandbox:latest
SECOND_ENGINE="${MANUS_TEST_REMOTE_DOCKER:-tcp://127.0.0.1:2376}"
CHECK_ONLY=0
case "${1:-}" in
  --check) CHECK_ONLY=1 ;;
  "") ;;
  *) echo "test-setup: unknown argument: $1 (usage: test-setup.sh [--check])" >&2; exit 2 ;;
esac

say() { echo "[test-setup] $*"; }

debian_like=0
grep -qE '^ID(_LIKE)?="?[a-z ]*\b(debian|ubuntu)\b' /etc/os-release 2>/dev/null && debian_like=1
can_install=0
if [[ $CHECK_ONLY -eq 0 && $(id -u) -eq 0 && $debian_like -eq 1 ]] && command -v apt-get >/dev/null; then
  can_install=1
fi

# each missing part: what it is for, then the command that provides it
missing=()
lack() { missing+=("$1: $2"); }
apt_command() {
  if [[ $debian_like -eq 1 ]]; then echo "sudo apt-get install -y $1"; else echo "install it (the Debian/Ubuntu package is $1)"; fi
}

# --- system packages: "command package what-for", one apt-get run for all that are missing
TOOLS=(
  "dockerd docker.io the Docker engine and CLI (sandbox, integration and end-to-end tests)"
  "chromium chromium Chromium (browser tests)"
  "dbus-run-session dbus dbus (keychain test)"
  "gnome-keyring-daemon gnome-keyring GNOME Keyring (keychain test)"
  "ip iproute2 ip (the second engine's network bridge)"
  "ssh-agent openssh-client ssh-agent and ssh-keygen (SSH engine tests)"
  "openssl openssl openssl (TLS engine tests)"
  "python3 python3 python3 (lint of the sandbox drivers; driver tests)"
  "pyflakes3 pyflakes3 pyflakes3 (lint of the sandbox drivers)"
  "shellcheck shellcheck shellcheck (lint of the shell scripts)"
)
packages=()
for tool in "${TOOLS[@]}"; do
  read -r command package purpose <<<"$tool"
  command -v "$command" >/dev/null && continue
  packages+=("$package")
  lack "$purpose" "$(apt_command "$package")"
done
# a CJK font, so the Chinese screens in the end-to-end screenshots show text rather than boxes
if ! fc-list :lang=zh family 2>/dev/null | grep -q .; then
  packages+=(fonts-wqy-microhei)
  lack "a Chinese font (end-to-end screenshots)" "$(apt_command fonts-wqy-microhei)"
fi

engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
image_id() { docker "$@" image inspect "$IMAGE" --format '{{.Id}}' 2>/dev/null; }
wanted="$(image_id || true)"
# the image is built with debootstrap, needed only when the image is not there yet
if [[ -z "$wanted" ]] && ! command -v debootstrap >/dev/null; then
  packages+=(debootstrap)
  lack "debootstrap (builds the sandbox image)" "$(apt_command debootstrap)"
fi

if [[ $can_install -eq 1 && ${#packages[@]} -gt 0 ]]; then
  say "installing ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
  missing=()
fi

# --- the Docker engine
if [[ -z "$wanted" ]] && ! engine_answers; then
  if [[ $can_install -eq 1 ]]; then
    say "starting dockerd (log: /var/log/dockerd.log)"
    setsid nohup dockerd >/var/log/dockerd.log 2>&1 </dev/null &
    for _ in $(seq 1 60); do engine_answers && break; sleep 1; done
    engine_answers || { tail -n 30 /var/log/dockerd.log >&2; say "dockerd did not start (log above)"; exit 1; }
  elif [[ "$(docker version 2>&1 || true)" == *"permission denied"* ]]; then
    lack "access to the Docker engine for $(id -un)" "sudo usermod -aG docker $(id -un), then log in again"
  else
    lack "a running Docker engine" "sudo systemctl start docker (or: sudo dockerd &)"
  fi
fi

# --- the sandbox image (built offline, from the Debian mirror; its rootfs is cached)
[[ -n "$wanted" ]] || wanted="$(image_id || true)"
if [[ -z "$wanted" ]]; then
  if [[ $can_install -eq 1 ]]; then
    bash scripts/sandbox/build-offline.sh
    wanted="$(image_id)"
  else
    lack "the sandbox image $IMAGE" "sudo bash scripts/sandbox/build-offline.sh"
  fi
fi

# --- the second engine, holding the same image
if [[ -z "$wanted" || "$(image_id -H "$SECOND_ENGINE" || true)" != "$wanted" ]]; then
  if [[ $can_install -eq 1 ]]; then
    SECOND_ENGINE="$(bash scripts/sandbox/second-engine.sh | sed -n 's/^MANUS_TEST_REMOTE_DOCKER=//p')"
    [[ -n "$SECOND_ENGINE" ]] || { say "the second engine did not start"; exit 1; }
  else
    lack "a second Docker engine on $SECOND_ENGINE with $IMAGE (remote-engine tests)" \
      "sudo bash scripts/sandbox/second-engine.sh"
  fi
fi

if [[ ${#missing[@]} -gt 0 ]]; then
  say "npm test needs these, and does not run without them:"
  for part in "${missing[@]}"; do echo "  - $part"; done
  if [[ $debian_like -eq 1 ]]; then
    say "as root, this script installs and starts all of them: sudo bash scripts/test-setup.sh"
  fi
  exit 1
fi

mkdir -p "$(dirname "$SETUP_ENV")"
echo "MANUS_TEST_REMOTE_DOCKER=$SECOND_ENGINE" >"$SETUP_ENV.partial"
mv "$SETUP_ENV.partial" "$SETUP_ENV"
say "all that npm test needs is here (second engine: $SECOND_ENGINE)"
