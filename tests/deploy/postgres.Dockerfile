# The deploy tier's PostgreSQL (scripts/test-deploy.sh builds it): the work store of the scale-out overlay's run,
# as the PostgreSQL a cluster's pods would reach. Debian's own server on the image's base, trusting every address of
# the test's private network (a test database: no password to manage, nothing kept).
ARG BASE_IMAGE=python:3.11-slim-bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql \
    && rm -rf /var/lib/apt/lists/*
USER postgres
RUN /usr/lib/postgresql/*/bin/initdb -D /var/lib/postgresql/data -U taumesh --auth=trust \
    && echo "host all all 0.0.0.0/0 trust" >> /var/lib/postgresql/data/pg_hba.conf \
    && ln -s /usr/lib/postgresql/*/bin/postgres /var/lib/postgresql/postgres
EXPOSE 5432
CMD ["/var/lib/postgresql/postgres", "-D", "/var/lib/postgresql/data", "-c", "listen_addresses=*", "-c", "fsync=off"]
