# syntax=docker/dockerfile:1
# Mbox: the web app, the extension package and the server in one image. `docker compose up` runs it with
# PostgreSQL (docker-compose.yml; README, "Run with Docker").

# Build stage: every dependency installed once, then the web app, the extension's store package and the
# server bundle (apps/server/dist, scripts/build-server.mjs) are built, and the development dependencies pruned away.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts tsconfig.base.json ./
COPY patches ./patches
COPY scripts ./scripts
COPY prisma ./prisma
COPY packages ./packages
COPY apps ./apps
# postinstall applies patches/ and generates the Prisma client (apps/server/src/generated). The local
# model's llama.cpp comes as node-llama-cpp's prebuilt binaries (npm packages): nothing is downloaded or
# compiled by its postinstall. The GPU variants (CUDA, Vulkan: ~600 MB) are removed unless the build sets
# LOCAL_MODEL_GPU_BINARIES=true (a CUDA image also needs an NVIDIA base image; docs/ai.md, "Local model").
ARG LOCAL_MODEL_GPU_BINARIES=false
ENV NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
RUN npm ci --no-audit --no-fund && \
  if [ "$LOCAL_MODEL_GPU_BINARIES" != "true" ]; then rm -rf node_modules/@node-llama-cpp/*-cuda* node_modules/@node-llama-cpp/*-vulkan; fi
COPY CHANGELOG.md ./
# The server's own node_modules holds what could not be hoisted (none of it production today): kept as a
# folder, maybe empty, so the runtime stage's COPY of it holds whatever a later version puts there.
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund && mkdir -p apps/server/node_modules

# Runtime stage: only what the server reads at run time, at the paths it expects relative to the
# repository root (apps/server/src/db/paths.ts): production dependencies, the server bundle, the
# migrations, the built web app and extension package, the changelog. No sources, no build tools.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/node_modules ./apps/server/node_modules
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/apps/web/dist ./apps/web/dist
COPY --from=build /app/apps/extension/dist-zip ./apps/extension/dist-zip
COPY --from=build /app/CHANGELOG.md ./CHANGELOG.md
# The server runs as the image's unprivileged `node` user; it writes only to DATA_DIR (secrets, outbox,
# the embedded database when no DATABASE_URL is set).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: signals reach the server, which finishes in-flight requests on SIGTERM. Its flags
# are the start script's (apps/server/package.json): 64 MB semi-spaces, fewer young-generation collections
# under load (docs/performance.md).
CMD ["node", "--max-semi-space-size=64", "apps/server/dist/main.js"]
