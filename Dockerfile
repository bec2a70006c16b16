# syntax=docker/dockerfile:1
# Zapdesk: one image for every node (docs/operations.md "Container image").
#   docker build -t zapdesk .
#   docker run -p 8080:8080 -v zapdesk-data:/data zapdesk        (embedded database, one node)
# Configuration is by environment only (README "Configuration", deploy/.env.example).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency (dev included), then the shared package, the server and the web app
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies of the server and the shared package only (the web app is built files)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@zapdesk/server --workspace=@zapdesk/shared \
  && npm cache clean --force

# ---- runtime: production dependencies, the built server, its migrations and the built web app
FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to Node (graceful stop) and reaps zombies.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    WEB_DIST=/app/apps/web/dist
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=deps /app/package.json ./package.json
COPY --from=build /app/packages/shared/package.json packages/shared/package.json
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/apps/server/package.json apps/server/package.json
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
# The node image's unprivileged user owns only the data directory (embedded database, generated
# secrets, local media); the code stays read-only to it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness: the process answers and its database does (readiness is /api/ready, for the proxy).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+(process.env.API_PREFIX??'/api')+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A graceful stop takes up to SHUTDOWN_TIMEOUT_MS (10 s): give `docker stop -t` / stop_grace_period more.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/server/dist/main.js"]
