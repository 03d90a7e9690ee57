# One image for everything taumesh runs: each service (`serve env|user-sim|agent|scorer`), the orchestrator (`run`)
# and data fetching (`data fetch tau2`), with bubblewrap for the knowledge track's shell sandbox. Configuration is by
# environment only (TAUMESH_*, OTEL_*): see docs/deploy.md.
#
#   docker build -t taumesh:dev --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" .
#
# No `# syntax=` line: it would make BuildKit pull a frontend image, which fails where no registry is reachable; the
# builder's own Dockerfile frontend reads this file (Docker's legacy builder, BuildKit and Podman alike).
#
# Behind an intercepting HTTPS proxy (a corporate CA), give its certificates (PEM text, one or more) as a build
# argument; both stages trust them, for pip at build time and for `data fetch` at run time:
#
#   docker build --build-arg EXTRA_CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)" -t taumesh:dev .
#
# The root filesystem may be read-only (`docker run --read-only`, readOnlyRootFilesystem in Kubernetes): the process
# writes only to /data (the dataset cache), /results (results files) and /tmp.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---- build: a virtual environment holding taumesh and its dependencies, built from the source tree ----
FROM ${PYTHON_IMAGE} AS build
ARG EXTRA_CA_CERTS=""
# Python's clients (pip, httpx, urllib) read the system store, which holds EXTRA_CA_CERTS when given.
ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
        printf '%s\n' "$EXTRA_CA_CERTS" > /usr/local/share/ca-certificates/taumesh-extra.crt \
        && update-ca-certificates > /dev/null; \
    fi
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# Dependencies first, so editing the source does not reinstall them: pip reads them from pyproject.toml alone.
COPY pyproject.toml README.md ./
RUN python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' \
        > /tmp/requirements.txt \
    && pip install --requirement /tmp/requirements.txt
# The package: taumesh/ holds the links services -> ../services and orchestrator -> ../orchestrator, which the
# wheel build follows, so all three folders are copied at the places the links expect.
COPY taumesh/ taumesh/
COPY services/ services/
COPY orchestrator/ orchestrator/
RUN pip install --no-deps . && taumesh --help > /dev/null

# ---- runtime: the environment alone, run by an unprivileged user ----
FROM ${PYTHON_IMAGE} AS runtime
ARG EXTRA_CA_CERTS=""
# Python's clients (pip, httpx, urllib) read the system store, which holds EXTRA_CA_CERTS when given.
ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
        printf '%s\n' "$EXTRA_CA_CERTS" > /usr/local/share/ca-certificates/taumesh-extra.crt \
        && update-ca-certificates > /dev/null; \
    fi
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE_URL=""
LABEL org.opencontainers.image.title="taumesh" \
      org.opencontainers.image.description="τ-bench as gRPC microservices: env, user-sim, agent, scorer and the orchestrator in one image" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.documentation="docs/deploy.md in the source" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="docker.io/library/python:3.11-slim-bookworm"

# bubblewrap: the sandbox of banking_knowledge's shell tool (the alltools and terminal_use* configurations). It
# needs unprivileged user namespaces and a fresh /proc, which default container profiles deny (docs/deploy.md);
# there the env refuses those configurations up front, naming bubblewrap's error. Unpinned: Debian's mirrors keep
# only a package's current version, so a pin would break the build at bubblewrap's next security update.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/* \
    && bwrap --version
# A fixed numeric uid/gid, so Kubernetes' runAsNonRoot can verify it and volumes can be prepared for it.
RUN groupadd --system --gid 10001 taumesh \
    && useradd --system --uid 10001 --gid taumesh --home-dir /home/taumesh --create-home --shell /usr/sbin/nologin taumesh \
    && install -d -o taumesh -g taumesh -m 0750 /data /results /var/lib/taumesh-api
COPY --from=build /opt/venv /opt/venv

# Every setting below can be overridden per container; a service needs only TAUMESH_SERVICE (or `serve NAME`).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    HOME=/home/taumesh \
    TMPDIR=/tmp \
    XDG_CACHE_HOME=/tmp/.cache \
    TAUMESH_CACHE_DIR=/data \
    TAUMESH_DATA_DIR=/data/taubench_v1 \
    TAUMESH_LOG_DIR=/results \
    TAUMESH_API_DATA_ROOT=/var/lib/taumesh-api \
    TAUMESH_HOST=0.0.0.0 \
    TAUMESH_PORT=50051

USER 10001:10001
WORKDIR /home/taumesh
# Named volumes start with these folders' owner (taumesh), so a read-only root still has somewhere to write.
VOLUME ["/data", "/results", "/tmp", "/var/lib/taumesh-api"]
EXPOSE 50051

# The server's own gRPC health service (SERVING until a graceful shutdown starts); only `serve` containers answer.
# `python -m` loads the probe alone, not the whole CLI.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "taumesh.commands.health", "--timeout", "3"]

ENTRYPOINT ["taumesh"]
CMD ["--help"]
