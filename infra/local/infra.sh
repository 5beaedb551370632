#!/usr/bin/env bash
# Local infrastructure without Docker: Apache Kafka (KRaft, single combined node) and Apicurio Registry
# (Confluent-compatible API at /apis/ccompat/v7) as JVM processes from Maven Central artefacts, plus the
# PostgreSQL that is already running (one is started only if none answers).
#
#   infra/local/infra.sh fetch    resolve the pinned artefacts into the cache (no-op when cached)
#   infra/local/infra.sh start    fetch, then start everything; a no-op for what is already running. Kafka keeps
#                                 its log (topics, messages, offsets) and cluster id across restarts
#   infra/local/infra.sh start --reset   the same, after `reset`
#   infra/local/infra.sh stop     stop what this script started; leaves no java process behind
#   infra/local/infra.sh reset    stop Kafka and the registry, then delete Kafka's log: the next start formats a new
#                                 cluster (no topics). PostgreSQL is left alone
#   infra/local/infra.sh status   print each component's state; exit 1 if any is down
#   infra/local/infra.sh env      print the endpoints as shell exports
#
# Settings (environment): SIGNALBOX_KAFKA_PORT (19092), SIGNALBOX_KAFKA_CONTROLLER_PORT (19093),
# SIGNALBOX_REGISTRY_PORT (18081), SIGNALBOX_REGISTRY_MANAGEMENT_PORT (19000), DATABASE_URL
# (postgres://postgres@127.0.0.1:5432/postgres), SIGNALBOX_PG_PORT (15432, only for a started PostgreSQL),
# SIGNALBOX_CACHE_DIR (~/.cache/signalbox/infra), SIGNALBOX_RUN_DIR (infra/local/.run),
# SIGNALBOX_KAFKA_HEAP (-Xms256m -Xmx768m), SIGNALBOX_REGISTRY_HEAP (-Xms128m -Xmx512m),
# SIGNALBOX_KAFKA_JIT (full: the JVM's both compilers, as a production broker runs; c1: the quick one only, which
# starts a little faster and then handles each request with more CPU),
# SIGNALBOX_REGISTRY_JAVA (a java binary of version 21+; found on PATH or under /usr/lib/jvm when unset:
# Apicurio Registry 3.3 is compiled for Java 21, while Kafka runs on the default Java 17).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"

KAFKA_PORT="${SIGNALBOX_KAFKA_PORT:-19092}"
CONTROLLER_PORT="${SIGNALBOX_KAFKA_CONTROLLER_PORT:-19093}"
REGISTRY_PORT="${SIGNALBOX_REGISTRY_PORT:-18081}"
REGISTRY_MGMT_PORT="${SIGNALBOX_REGISTRY_MANAGEMENT_PORT:-19000}"
PG_PORT="${SIGNALBOX_PG_PORT:-15432}"
CACHE_DIR="${SIGNALBOX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/signalbox/infra}"
RUN_DIR="${SIGNALBOX_RUN_DIR:-$HERE/.run}"
KAFKA_HEAP="${SIGNALBOX_KAFKA_HEAP:--Xms256m -Xmx768m}"
REGISTRY_HEAP="${SIGNALBOX_REGISTRY_HEAP:--Xms128m -Xmx512m}"
case "${SIGNALBOX_KAFKA_JIT:-full}" in
  full) KAFKA_JIT=() ;;
  c1) KAFKA_JIT=(-XX:TieredStopAtLevel=1) ;;
  *) echo "[infra] SIGNALBOX_KAFKA_JIT must be full or c1, got '${SIGNALBOX_KAFKA_JIT}'" >&2; exit 2 ;;
esac
START_TIMEOUT_S="${SIGNALBOX_START_TIMEOUT_S:-120}"

KAFKA_LIBS="$CACHE_DIR/kafka-$KAFKA_VERSION-log4j-$LOG4J_VERSION-slf4j-$SLF4J_VERSION/libs"
APICURIO_HOME="$CACHE_DIR/apicurio-registry-$APICURIO_VERSION"
LOG_DIR="$RUN_DIR/logs"
BROKERS="127.0.0.1:$KAFKA_PORT"
REGISTRY_URL="http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] error: %s\n' "$*" >&2; exit 1; }

for port_var in KAFKA_PORT CONTROLLER_PORT REGISTRY_PORT REGISTRY_MGMT_PORT PG_PORT; do
  value="${!port_var}"
  [[ "$value" =~ ^[0-9]+$ ]] && (( value > 0 && value < 65536 )) ||
    die "$port_var must be a TCP port number (1-65535), got '$value'"
done

need() { command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed: $2"; }

default_database_url() { echo "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"; }

# --- fetch -------------------------------------------------------------------------------------------
fetch_kafka() {
  [[ -f "$KAFKA_LIBS/.complete" ]] && return 0
  need mvn "install Apache Maven (apt-get install maven) to fetch Kafka from Maven Central"
  log "fetching Kafka $KAFKA_VERSION from Maven Central into $KAFKA_LIBS"
  local tmp="$KAFKA_LIBS.tmp.$$"
  rm -rf "$tmp"
  mvn -q -B -f "$HERE/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -Dkafka.version="$KAFKA_VERSION" -Dlog4j.version="$LOG4J_VERSION" -Dslf4j.version="$SLF4J_VERSION" \
    -DoutputDirectory="$tmp" >&2 || { rm -rf "$tmp"; die "mvn could not resolve Kafka $KAFKA_VERSION"; }
  touch "$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mkdir -p "$(dirname "$KAFKA_LIBS")"
  mv "$tmp" "$KAFKA_LIBS"
}

fetch_apicurio() {
  [[ -f "$APICURIO_HOME/.complete" ]] && return 0
  need mvn "install Apache Maven (apt-get install maven) to fetch Apicurio Registry from Maven Central"
  log "fetching Apicurio Registry $APICURIO_VERSION from Maven Central into $APICURIO_HOME"
  local tmp="$APICURIO_HOME.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  mvn -q -B dependency:copy \
    -Dartifact="io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all" \
    -DoutputDirectory="$tmp" >&2 || { rm -rf "$tmp"; die "mvn could not resolve Apicurio Registry $APICURIO_VERSION"; }
  tar -xzf "$tmp/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz" -C "$tmp"
  rm -f "$tmp/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz"
  # 3.3.x unpacks flat (quarkus-run.jar at the top); 3.1-3.2 put it under quarkus-app/.
  [[ -f "$tmp/quarkus-run.jar" || -f "$tmp/quarkus-app/quarkus-run.jar" ]] ||
    { rm -rf "$tmp"; die "the Apicurio archive has no quarkus-run.jar"; }
  touch "$tmp/.complete"
  rm -rf "$APICURIO_HOME"
  mv "$tmp" "$APICURIO_HOME"
}

cmd_fetch() {
  need java "install a Java 17+ runtime (apt-get install openjdk-17-jre-headless)"
  fetch_kafka
  fetch_apicurio
  log "artefacts cached in $CACHE_DIR"
}

# --- process helpers ---------------------------------------------------------------------------------
pid_file() { echo "$RUN_DIR/$1.pid"; }

running_pid() {
  local f pid
  f="$(pid_file "$1")"
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

# Starts a detached process (own session, so the caller's job control never kills it) and records its pid.
spawn() {
  local name="$1"; shift
  mkdir -p "$LOG_DIR"
  setsid "$@" >"$LOG_DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$(pid_file "$name")"
}

stop_one() {
  local name="$1" pid
  if pid="$(running_pid "$name")"; then
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name did not stop within 20 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$(pid_file "$name")"
}

probe() { node "$HERE/probe.mjs" "$@"; }
# The probes use kafkajs and pg, the dependencies of infra/local's package.json (Node resolves them from
# infra/local/node_modules first, then from the workspace root): without them every probe would fail as if nothing
# answered (and start would go on to initialise a PostgreSQL of its own).
has_dep() { [[ -d "$HERE/node_modules/$1" || -d "$HERE/../../node_modules/$1" ]]; }
need_probe_deps() {
  has_dep kafkajs && has_dep pg ||
    die "the workspace's dependencies are not installed (kafkajs, pg): run 'bash scripts/pnpm.sh install' first"
}

# --- kafka -------------------------------------------------------------------------------------------
write_kafka_config() {
  local dir="$RUN_DIR/kafka"
  mkdir -p "$dir"
  cat >"$dir/server.properties" <<PROPS
# Generated by infra/local/infra.sh: one combined broker+controller node, everything on 127.0.0.1.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
log.retention.hours=24
log.segment.bytes=16777216
num.network.threads=2
num.io.threads=4
PROPS
}

# Kafka's log directory: formatted once (meta.properties holds the cluster id), kept across restarts until `reset`.
kafka_data() { echo "$RUN_DIR/kafka/data"; }

start_kafka() {
  if running_pid kafka >/dev/null; then log "kafka already running"; return 0; fi
  write_kafka_config
  local dir="$RUN_DIR/kafka" data
  data="$(kafka_data)"
  if [[ -f "$data/meta.properties" ]]; then
    # A restart keeps the log: topics, messages, committed offsets and the cluster id survive.
    log "kafka log kept ($data, cluster $(sed -n 's/^cluster\.id=//p' "$data/meta.properties"))"
  else
    # Never formatted (or a format that did not finish): nothing in it is worth keeping.
    rm -rf "$data"
    local cluster_id
    # A base64url id of 16 random bytes, as Kafka's own random-uuid prints. One that begins with '-' (1 in 64) would
    # be read by the format command as an option and fail, so it is drawn again, as Kafka's Uuid.randomUuid does.
    cluster_id="-"
    while [[ "$cluster_id" == -* ]]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    java -cp "$KAFKA_LIBS/*" -Dlog4j2.configurationFile="$HERE/log4j2.properties" \
      kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" >"$LOG_DIR/kafka-format.log" 2>&1 ||
      die "formatting the Kafka log failed; see $LOG_DIR/kafka-format.log"
    log "formatted a new kafka cluster $cluster_id in $data"
  fi
  log "starting kafka on $BROKERS"
  # shellcheck disable=SC2086 # the heap setting is a list of JVM flags
  spawn kafka java $KAFKA_HEAP -XX:+UseG1GC "${KAFKA_JIT[@]}" -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$HERE/log4j2.properties" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$dir/server.properties"
}

# --- apicurio ----------------------------------------------------------------------------------------
java_major() { "$1" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }'; }

# Apicurio Registry 3.3 needs Java 21+; prefer SIGNALBOX_REGISTRY_JAVA, then `java` on PATH, then /usr/lib/jvm.
registry_java() {
  if [[ -n "${SIGNALBOX_REGISTRY_JAVA:-}" ]]; then
    local major; major="$(java_major "$SIGNALBOX_REGISTRY_JAVA")"
    [[ "${major:-0}" -ge 21 ]] || die "SIGNALBOX_REGISTRY_JAVA=$SIGNALBOX_REGISTRY_JAVA is not a Java 21+ runtime"
    echo "$SIGNALBOX_REGISTRY_JAVA"; return 0
  fi
  local candidate major
  for candidate in "$(command -v java)" /usr/lib/jvm/*/bin/java; do
    [[ -x "$candidate" ]] || continue
    major="$(java_major "$candidate")"
    if [[ "${major:-0}" -ge 21 ]]; then echo "$candidate"; return 0; fi
  done
  die "Apicurio Registry $APICURIO_VERSION needs Java 21+; install one (e.g. apt-get install openjdk-21-jre-headless, or Temurin) or set SIGNALBOX_REGISTRY_JAVA"
}

start_registry() {
  if running_pid registry >/dev/null; then log "registry already running"; return 0; fi
  local jar="$APICURIO_HOME/quarkus-run.jar"
  [[ -f "$jar" ]] || jar="$APICURIO_HOME/quarkus-app/quarkus-run.jar"
  log "starting apicurio registry on http://127.0.0.1:$REGISTRY_PORT (management 127.0.0.1:$REGISTRY_MGMT_PORT)"
  # shellcheck disable=SC2086 # the heap setting is a list of JVM flags
  spawn registry "$(registry_java)" $REGISTRY_HEAP -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$REGISTRY_PORT" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$REGISTRY_MGMT_PORT" \
    -Dquarkus.log.level=WARN -Dquarkus.log.category.\"io.apicurio\".level=INFO \
    -jar "$jar"
}

# --- postgres ----------------------------------------------------------------------------------------
pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [[ -x "$d/initdb" ]] && { echo "$d"; return 0; }; done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}

ensure_postgres() {
  local url
  url="$(default_database_url)"
  if probe postgres "$url" >/dev/null 2>&1; then log "postgres answers at $(probe redact "$url")"; return 0; fi
  if running_pid postgres >/dev/null; then log "postgres (started here) is running"; return 0; fi
  [[ -n "${DATABASE_URL:-}" ]] && die "DATABASE_URL is set but PostgreSQL does not answer there: $(probe redact "$url")"
  local bin
  bin="$(pg_bin)" || die "no PostgreSQL answers at $url and none is installed (apt-get install postgresql), or set DATABASE_URL"
  local data="$RUN_DIR/pgdata" as=()
  if [[ "$(id -u)" == 0 ]]; then as=(runuser -u postgres --); mkdir -p "$RUN_DIR"; chown postgres "$RUN_DIR" 2>/dev/null || true; fi
  if [[ ! -f "$data/PG_VERSION" ]]; then
    log "initialising a PostgreSQL cluster in $data"
    mkdir -p "$data"; [[ ${#as[@]} -gt 0 ]] && chown postgres "$data"
    "${as[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust >"$LOG_DIR/postgres-init.log" 2>&1 ||
      die "initdb failed; see $LOG_DIR/postgres-init.log"
  fi
  log "starting postgres on 127.0.0.1:$PG_PORT"
  # pg_ctl opens its log as the postgres user: the file must be that user's when this script runs as root.
  if [[ ${#as[@]} -gt 0 ]]; then touch "$LOG_DIR/postgres.log"; chown postgres "$LOG_DIR/postgres.log"; fi
  "${as[@]}" "$bin/pg_ctl" -D "$data" -l "$LOG_DIR/postgres.log" -o "-h 127.0.0.1 -p $PG_PORT -k /tmp" start >/dev/null
  "${as[@]}" cat "$data/postmaster.pid" 2>/dev/null | head -1 >"$(pid_file postgres)"
}

postgres_url() {
  if running_pid postgres >/dev/null; then echo "postgres://postgres@127.0.0.1:$PG_PORT/postgres"; else default_database_url; fi
}

# --- commands ----------------------------------------------------------------------------------------
cmd_start() {
  local t0=$SECONDS
  case "${1:-}" in
    "") ;;
    --reset) cmd_reset ;;
    *) echo "usage: $0 start [--reset]" >&2; exit 2 ;;
  esac
  need node "install Node.js 20"
  need_probe_deps
  cmd_fetch
  mkdir -p "$LOG_DIR"
  ensure_postgres
  start_kafka
  start_registry
  # Readiness is decided by real requests: a Kafka metadata call and an HTTP 200 from the registry API.
  if ! probe wait "$BROKERS" "$REGISTRY_URL" "$START_TIMEOUT_S" \
    "kafka=$(running_pid kafka || echo 0)" "registry=$(running_pid registry || echo 0)"; then
    log "not ready within ${START_TIMEOUT_S}s; last lines of the logs:"
    tail -n 20 "$LOG_DIR/kafka.log" "$LOG_DIR/registry.log" >&2 || true
    log "a kept Kafka log that this Kafka cannot read (another version, a broken disk) is cleared by '$0 reset'"
    # A failed start leaves nothing running behind it.
    cmd_stop
    exit 1
  fi
  log "ready in $((SECONDS - t0)) s"
  cmd_env
}

cmd_stop() {
  stop_one registry
  stop_one kafka
  if running_pid postgres >/dev/null; then
    local bin as=()
    bin="$(pg_bin)"
    [[ "$(id -u)" == 0 ]] && as=(runuser -u postgres --)
    "${as[@]}" "$bin/pg_ctl" -D "$RUN_DIR/pgdata" stop -m fast >/dev/null || stop_one postgres
    rm -f "$(pid_file postgres)"
  fi
  log "stopped"
}

# Deletes Kafka's log, so that the next start formats a new cluster. Kafka and the registry are stopped first: a running
# broker holds the log, and the registry's in-memory schemas belong to the old log's messages. Idempotent.
cmd_reset() {
  stop_one registry
  stop_one kafka
  local data
  data="$(kafka_data)"
  if [[ -e "$data" ]]; then
    rm -rf "$data"
    log "deleted the kafka log ($data); the next start formats a new cluster"
  else
    log "no kafka log to delete"
  fi
}

cmd_status() {
  need_probe_deps
  local ok=0
  if running_pid kafka >/dev/null && probe kafka "$BROKERS" >/dev/null 2>&1; then echo "kafka     up    $BROKERS";
  else echo "kafka     down  $BROKERS"; ok=1; fi
  if running_pid registry >/dev/null && probe registry "$REGISTRY_URL" >/dev/null 2>&1; then echo "registry  up    $REGISTRY_URL";
  else echo "registry  down  $REGISTRY_URL"; ok=1; fi
  local url; url="$(postgres_url)"
  if probe postgres "$url" >/dev/null 2>&1; then echo "postgres  up    $(probe redact "$url")";
  else echo "postgres  down  $(probe redact "$url")"; ok=1; fi
  return $ok
}

cmd_env() {
  echo "export KAFKA_BROKERS=$BROKERS"
  echo "export SCHEMA_REGISTRY_URL=$REGISTRY_URL"
  echo "export DATABASE_URL=$(postgres_url)"
}

case "${1:-}" in
  fetch) cmd_fetch ;;
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  reset) cmd_reset ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) echo "usage: $0 fetch|start [--reset]|stop|reset|status|env" >&2; exit 2 ;;
esac
