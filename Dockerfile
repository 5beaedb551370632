# syntax=docker/dockerfile:1.7
# One image per service from one Dockerfile. Pick the workspace package with PACKAGE_DIR:
#   docker build --build-arg PACKAGE_DIR=services/executor -t signalbox/executor:dev .
#   (services/{model-selector,tool-decider,parameter-injector,executor,result-evaluator,api,demo-tools}, packages/cli)
#   The tool decider and the CLI also need the embedding models: add --target runtime-with-models.
# Stages: build (full workspace, tsc -b) → pruned (only the package, its workspace dependencies' dist and its
# production node_modules) → runtime (node:20-alpine, tini as PID 1, non-root, HEALTHCHECK).

ARG NODE_IMAGE=node:20.19-alpine3.22
ARG PNPM_VERSION=10.34.9

FROM ${NODE_IMAGE} AS base
ARG PNPM_VERSION
# corepack cannot verify the registry's signatures on some machines; npm installs the pinned pnpm instead.
RUN npm install -g --no-audit --no-fund "pnpm@${PNPM_VERSION}"
ENV PNPM_HOME=/pnpm CI=true
WORKDIR /repo

FROM base AS build
# The lockfile alone fills the store (cached while dependencies do not change).
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --store-dir /pnpm/store
COPY . .
RUN pnpm install --frozen-lockfile --offline --store-dir /pnpm/store
ARG PACKAGE_DIR
RUN test -n "${PACKAGE_DIR}" || { echo "build with --build-arg PACKAGE_DIR=services/<name> or packages/cli" >&2; exit 1; }
RUN pnpm exec tsc -b "${PACKAGE_DIR}"

FROM build AS pruned
ARG PACKAGE_DIR
# A copy of the workspace holding every manifest (so the lockfile still matches) but only built output, then a
# production install filtered to the package and its workspace dependencies.
RUN mkdir /prune \
 && cp package.json pnpm-lock.yaml pnpm-workspace.yaml /prune/ \
 && for dir in packages/* services/* infra/local test; do \
      mkdir -p "/prune/${dir}" && cp "${dir}/package.json" "/prune/${dir}/"; \
      if [ -d "${dir}/dist" ]; then cp -r "${dir}/dist" "/prune/${dir}/"; fi; \
    done \
 && cp -r registry /prune/registry \
 && find /prune -name '*.test.*' -delete
WORKDIR /prune
RUN NAME="$(node -p "require('./${PACKAGE_DIR}/package.json').name")" \
 && pnpm install --prod --frozen-lockfile --offline --store-dir /pnpm/store --filter "${NAME}..."

FROM ${NODE_IMAGE} AS models
# The offline embedding models (packages/embedder/models.json): each LangChain4j jar from Maven Central, unpacked to
# its ONNX graph and tokenizer, every file checked against the sha256 the catalog pins — the same files
# scripts/fetch-models.sh puts into ~/.cache/signalbox/models for the tests, so the images decide as the tests do.
COPY packages/embedder/models.json /models.json
RUN mkdir /models && node -e ' \
      const c = require("/models.json"); \
      for (const m of c.models) { \
        const [g, a, v] = m.artifact.split(":"); \
        console.log([`https://repo1.maven.org/maven2/${g.replace(/\./g, "/")}/${a}/${v}/${a}-${v}.jar`, \
          m.onnx, m.onnx_sha256, m.tokenizer, m.tokenizer_sha256].join(" ")); \
      }' > /models.list \
 && while read -r url onnx onnx_sum tok tok_sum; do \
      wget -q -O /tmp/model.jar "$url" \
      && unzip -q -o /tmp/model.jar "$onnx" "$tok" -d /models \
      && echo "$onnx_sum  /models/$onnx" | sha256sum -c - \
      && echo "$tok_sum  /models/$tok" | sha256sum -c - \
      && rm /tmp/model.jar || exit 1; \
    done < /models.list

FROM ${NODE_IMAGE} AS service
# tini is PID 1: it forwards SIGTERM to node (which drains) and reaps children (MCP stdio servers).
RUN apk add --no-cache tini
ARG PACKAGE_DIR
ARG HEALTH_PATH=/readyz
ARG HTTP_PORT=8080
ENV NODE_ENV=production \
    HTTP_PORT=${HTTP_PORT} \
    SIGNALBOX_HEALTH_PATH=${HEALTH_PATH}
# The scenario packs sit at /app/registry/packs/<pack> (SIGNALBOX_REGISTRY_DIR). Root-owned and read-only for the
# service user: the code cannot be rewritten at run time.
COPY --from=pruned /prune /app
WORKDIR /app/${PACKAGE_DIR}
USER node
EXPOSE ${HTTP_PORT}
# Readiness of the service's own HTTP server; demo-tools: --build-arg HEALTH_PATH=/healthz --build-arg HTTP_PORT=8090.
# The CLI image has no server: its HEALTHCHECK is never consulted (jobs run to completion).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.HTTP_PORT+process.env.SIGNALBOX_HEALTH_PATH).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/sbin/tini", "--"]
CMD ["node", "dist/main.js"]

# The tool decider and the CLI (redecide, replay, eval) rank with the embedding models: build them with
# --target runtime-with-models (docker-compose.yml does). The files are read-only under /app/models.
FROM service AS runtime-with-models
COPY --from=models /models /app/models
ENV SIGNALBOX_MODEL_DIR=/app/models

# The default target (last): the service without the models.
FROM service AS runtime
