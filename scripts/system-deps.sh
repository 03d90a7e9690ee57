#!/usr/bin/env bash
# Debian packages some tests use: a full protoc with gRPC plugins (`buf generate` in other languages), Chromium
# (the viewer's browser tests, driven by Playwright), PostgreSQL's server binaries (the REST API's database tests) and
# bubblewrap (the sandbox of banking_knowledge's shell tool).
# Installs what is missing when it can (root with apt-get); otherwise says so, and those tests skip with the reason.
# Usage: bash scripts/system-deps.sh
set -uo pipefail
PACKAGES=(protobuf-compiler protobuf-compiler-grpc chromium postgresql bubblewrap)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: not installing ${missing[*]} (needs root and apt-get); the tests that use them will skip" >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]}"
{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
  >/tmp/taumesh-system-deps.log 2>&1 \
  || echo "system-deps: apt-get failed (see /tmp/taumesh-system-deps.log); the tests that use them will skip" >&2
exit 0
