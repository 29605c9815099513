#!/usr/bin/env bash
# Builds manus-sandbox:latest with no registry (debootstrap + docker import). The recipe lives with the Dockerfile in
# resources/sandbox/ so the packaged app ships it too; see resources/sandbox/build-offline.sh for options.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../resources/sandbox/build-offline.sh" "$@"
