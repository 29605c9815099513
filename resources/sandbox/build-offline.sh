#!/usr/bin/env bash
# Builds the sandbox image without a registry: debootstrap a Debian rootfs, add the
# unprivileged user, `docker import` it. The rootfs tarball is cached, so a rebuild takes seconds.
# Usage: build-offline.sh [--force] [--image NAME] [--cache DIR] [--mirror URL]
set -euo pipefail

IMAGE="${MANUS_SANDBOX_IMAGE:-manus-sandbox:latest}"
CACHE_DIR="${MANUS_SANDBOX_CACHE:-/var/cache/manus-sandbox}"
MIRROR="${MANUS_SANDBOX_MIRROR:-http://deb.debian.org/debian}"
SUITE=bookworm
FORCE=0
# bump when the rootfs recipe changes so an old cached tarball is not reused
RECIPE_VERSION=4
# data analysis; the document readers (PDF, Word, Excel, OpenDocument, HTML, EPUB, scans through OCR in English and
# Simplified Chinese) that resources/sandbox/drivers/document_text.py uses
PACKAGES=python3,python3-numpy,python3-pandas,python3-matplotlib,python3-requests,python3-scipy,python3-sklearn,\
python3-seaborn,python3-pypdf,python3-docx,python3-openpyxl,python3-odf,python3-bs4,python3-lxml,python3-pil,\
poppler-utils,tesseract-ocr,tesseract-ocr-eng,tesseract-ocr-chi-sim,pandoc,bash,coreutils,procps,ca-certificates
PYTHON_CHECK='import numpy, pandas, matplotlib, requests, scipy, sklearn, seaborn, pypdf, docx, openpyxl, odf, bs4, lxml, PIL'
SANDBOX_USER=manus
SANDBOX_UID=1000

while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) FORCE=1 ;;
    --image) IMAGE="$2"; shift ;;
    --cache) CACHE_DIR="$2"; shift ;;
    --mirror) MIRROR="$2"; shift ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "build-offline: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

say() { echo "[sandbox-build] $*"; }
die() { echo "[sandbox-build] ERROR: $*" >&2; exit 1; }

command -v docker >/dev/null || die "docker CLI not found (install docker.io)"
docker info >/dev/null 2>&1 || die "the Docker engine does not answer (start it: sudo systemctl start docker, or: nohup dockerd >/var/log/dockerd.log 2>&1 &)"

RECIPE="v$RECIPE_VERSION-$(echo "$PACKAGES" | sha256sum | cut -c1-12)"
TARBALL="$CACHE_DIR/rootfs-$SUITE-$RECIPE.tar"

# an image of an older recipe (fewer packages) is rebuilt, so a machine that had one gets the new tools
present_recipe="$(docker image inspect -f '{{ index .Config.Labels "manus.sandbox.recipe" }}' "$IMAGE" 2>/dev/null || true)"
if [[ $FORCE -eq 0 && "$present_recipe" == "$RECIPE" ]]; then
  say "image $IMAGE already present (use --force to rebuild)"
  exit 0
fi

build_rootfs() {
  [[ $(id -u) -eq 0 ]] || die "debootstrap needs root (run with sudo)"
  command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install debootstrap)"
  mkdir -p "$CACHE_DIR"
  local work
  work="$(mktemp -d "$CACHE_DIR/build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  local rootfs="$work/rootfs" log="$work/debootstrap.log"
  say "debootstrap $SUITE (minbase) from $MIRROR: takes a few minutes"
  if ! debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$rootfs" "$MIRROR" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "debootstrap failed (full log above, last 30 lines)"
  fi
  say "configuring rootfs"
  # the unprivileged user the sandbox runs as when the host user is root
  echo "$SANDBOX_USER:x:$SANDBOX_UID:$SANDBOX_UID:Manus sandbox:/home/$SANDBOX_USER:/bin/bash" >>"$rootfs/etc/passwd"
  echo "$SANDBOX_USER:x:$SANDBOX_UID:" >>"$rootfs/etc/group"
  echo "$SANDBOX_USER:*:19000:0:99999:7:::" >>"$rootfs/etc/shadow"
  install -d -m 0755 -o "$SANDBOX_UID" -g "$SANDBOX_UID" "$rootfs/home/$SANDBOX_USER" "$rootfs/workspace"
  # compilers and headers arrive through python3-pythran (scipy <- fonttools <- matplotlib) and are never used at run time
  local build_only installed
  build_only=(gcc-12 g++-12 cpp-12 gcc g++ cpp libgcc-12-dev libstdc++-12-dev libboost1.74-dev libboost-dev
    libopenblas-pthread-dev libopenblas-dev libblas-dev liblapack-dev libc6-dev linux-libc-dev libpython3.11-dev
    python3.11-dev python3-dev libpython3-dev libexpat1-dev zlib1g-dev binutils binutils-common
    binutils-x86-64-linux-gnu libbinutils libctf0 libctf-nobfd0 libgprofng0 libasan8 libtsan2 liblsan0 libubsan1
    libhwasan0 libitm1 libcc1-0 unicode-data)
  # shellcheck disable=SC2016 # ${Package} is dpkg-query's own format field, not a shell expansion
  installed="$(chroot "$rootfs" dpkg-query -W -f='${Package}\n' "${build_only[@]}" 2>/dev/null || true)"
  if [[ -n "$installed" ]]; then
    # shellcheck disable=SC2086
    chroot "$rootfs" dpkg --purge --force-depends $installed >>"$log" 2>&1 || die "could not remove build-only packages"
  fi
  # smaller image: package caches, docs and man pages are not needed at run time
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
  chroot "$rootfs" python3 -c "$PYTHON_CHECK" || die "python packages do not import in the rootfs"
  for tool in pdftotext pdftoppm tesseract pandoc; do
    chroot "$rootfs" sh -c "command -v $tool" >/dev/null || die "$tool is missing from the rootfs"
  done
  # matplotlib's font cache, built once here instead of at every first plot (the driver seeds ~/.cache from it)
  chroot "$rootfs" env MPLCONFIGDIR=/opt/manus/matplotlib MPLBACKEND=Agg python3 -c 'import matplotlib.pyplot' \
    || die "matplotlib font cache could not be built"
  chmod -R a+rX "$rootfs/opt/manus"
  tar -C "$rootfs" --numeric-owner -cf "$TARBALL.partial" .
  mv "$TARBALL.partial" "$TARBALL"
  find "$CACHE_DIR" -maxdepth 1 -name 'rootfs-*.tar' ! -path "$TARBALL" -delete
  rm -rf "$work"
  trap - EXIT
  say "rootfs cached at $TARBALL ($(du -h "$TARBALL" | cut -f1))"
}

if [[ -f "$TARBALL" ]]; then
  say "using cached rootfs $TARBALL"
else
  build_rootfs
fi

say "importing $IMAGE"
docker import \
  --change "USER $SANDBOX_USER" \
  --change 'WORKDIR /workspace' \
  --change "ENV HOME=/home/$SANDBOX_USER LANG=C.UTF-8 MPLBACKEND=Agg PYTHONUNBUFFERED=1 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'LABEL manus.sandbox.image=offline' \
  --change "LABEL manus.sandbox.recipe=$RECIPE" \
  --change 'CMD ["sleep", "infinity"]' \
  "$TARBALL" "$IMAGE" >/dev/null || die "docker import failed"
docker run --rm --network none "$IMAGE" python3 -c "$PYTHON_CHECK" \
  || die "the imported image cannot run python3 with its packages"
say "image $IMAGE ready"
