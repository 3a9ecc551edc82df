# syntax=docker/dockerfile:1
# Every stage uses the same base image: the native modules (better-sqlite3, argon2) compiled in
# `deps` must load against the runtime stage's glibc and Node ABI.
# Node 22 LTS (Node 20 reached end of life on 2026-04-30), an exact patch release so that a rebuild
# is the same image; the code itself still runs on Node 20.19+.
ARG NODE_IMAGE=node:22.24.0-bookworm-slim

# Compiles TypeScript and builds the web console with the devDependencies; only dist/ and web/dist/ leave this stage.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own `prepare` would build before the sources are copied, and
# no native module is needed to run tsc.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
# The server first: the console's types come from the contract the compiled server prints.
RUN npm run build && npm run build:web

# Production dependencies only, native modules built here with the toolchain the runtime lacks.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off for `prepare` (it needs tsc); then only the native modules run their install step,
# which takes a prebuilt binary when one matches and compiles from source otherwise.
RUN npm ci --omit=dev --ignore-scripts \
 && npm rebuild better-sqlite3 argon2 \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# tini as PID 1: node there ignores SIGTERM until it installs its own handler, so a stop during
# start-up (30 s of store retries) would wait for Docker's SIGKILL; tini forwards the signal and
# reaps zombies. ca-certificates: the system trust store (the slim image has none), for whatever
# else reads it; the store adapters give both KurrentDB paths one CA file of Node's own when the
# URL has no tlsCAFile (docs/production.md, TLS).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Inside a container, the loopback default would hide the metrics from Prometheus in the next
# container; the metrics port (9464) is not published to the host (docs/operations.md).
ENV METRICS_HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only to the service; only the embedded data directory is writable.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
# The add-on catalogue (ADDONS_DIR defaults to ./addons); mount a volume over it to ship others.
COPY addons ./addons
# /data: the embedded store (`docker run -p 3000:3000 -v platform-data:/data platform-api`): its
# SQLite files and, created there on the first start, the audit signing key and the webhook secret
# key, so that one volume keeps all a restart needs. /app/audit-key and /app/webhook-key: where
# docker-compose.yml mounts the audit signing key and the webhook secret key that every process of
# the production stack shares. A named volume mounted on any of them takes this owner and mode on
# its first use.
RUN mkdir -p /data /app/audit-key /app/webhook-key \
 && chown node:node /data /app/audit-key /app/webhook-key \
 && chmod 700 /data /app/audit-key /app/webhook-key
ENV DATA_DIR=/data
VOLUME ["/data"]
# The official Node images ship an unprivileged `node` user (uid 1000).
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://localhost:'+(process.env.PORT||3000)+'/api/v1/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
