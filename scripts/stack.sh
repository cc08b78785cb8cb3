#!/usr/bin/env bash
# The local stack groundwire runs on: one Apache Kafka broker in KRaft mode (from the
# Maven Central jars, no Docker) and one Debian redis-server.
#
#   scripts/stack.sh start    fetch jars if needed, start both, wait until they accept connections
#   scripts/stack.sh status   report what runs (exit 0 when both answer, 1 otherwise)
#   scripts/stack.sh stop     stop what this script started (never a service it did not start)
#   scripts/stack.sh logs     print the paths of the log files
#
# Idempotent: `start` on a running stack only reports it. A Kafka or Redis already
# answering on the configured port (started by someone else) is reused, not restarted.
#
# Settings (environment):
#   GROUNDWIRE_STACK_DIR     state, data and logs            (default: <repo>/.stack)
#   GROUNDWIRE_KAFKA_LIBS    directory of broker jars          (default: ~/.cache/groundwire/kafka-<version>/lib)
#   GROUNDWIRE_KAFKA_PORT    broker listener port               (default: 9092; controller uses port+1)
#   GROUNDWIRE_REDIS_PORT    redis port                         (default: 6379)
#   GROUNDWIRE_STACK_TIMEOUT seconds to wait for readiness     (default: 90)
set -euo pipefail

KAFKA_VERSION=4.4.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
stack_dir="${GROUNDWIRE_STACK_DIR:-$repo/.stack}"
libs="${GROUNDWIRE_KAFKA_LIBS:-${XDG_CACHE_HOME:-$HOME/.cache}/groundwire/kafka-$KAFKA_VERSION/lib}"
kafka_port="${GROUNDWIRE_KAFKA_PORT:-9092}"
controller_port=$((kafka_port + 1))
redis_port="${GROUNDWIRE_REDIS_PORT:-6379}"
timeout_s="${GROUNDWIRE_STACK_TIMEOUT:-90}"
log_dir="$stack_dir/logs"

say() { printf '[stack] %s\n' "$*"; }
die() { printf '[stack] error: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

redis_ping() { [ "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = "PONG" ]; }

kafka_ready() {
  # Ready means the broker answers a metadata request, not merely that the port is open.
  port_open "$kafka_port" || return 1
  python3 - "$kafka_port" <<'PY' 2>/dev/null
import socket, struct, sys
# ApiVersions v0 request: size, api_key=18, version=0, correlation_id=1, client_id="probe"
cid = b"probe"
body = struct.pack(">hhih", 18, 0, 1, len(cid)) + cid
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
s.sendall(struct.pack(">i", len(body)) + body)
hdr = s.recv(4)
size = struct.unpack(">i", hdr)[0]
data = b""
while len(data) < size:
    chunk = s.recv(size - len(data))
    if not chunk:
        break
    data += chunk
# correlation id then error code 0
sys.exit(0 if len(data) >= 6 and struct.unpack(">ih", data[:6]) == (1, 0) else 1)
PY
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
  local cfg="$stack_dir/kafka/server.properties"
  mkdir -p "$stack_dir/kafka/data"
  cat >"$cfg" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$kafka_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$kafka_port,CONTROLLER://127.0.0.1:$controller_port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
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
  echo "$cfg"
}

java_opts() {
  echo "-Xms512m -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true \
-Dlog4j2.configurationFile=$here/kafka-runtime/log4j2.properties -Dkafka.logs.dir=$log_dir"
}

start_kafka() {
  if kafka_ready; then
    if pid_alive "$stack_dir/kafka.pid"; then say "kafka already running (pid $(cat "$stack_dir/kafka.pid"), 127.0.0.1:$kafka_port)"
    else say "kafka already answering on 127.0.0.1:$kafka_port (not started by this script; reusing it)"; fi
    return 0
  fi
  port_open "$kafka_port" && die "port $kafka_port is taken by something that is not a Kafka broker"
  command -v java >/dev/null || die "java not found: install a JDK 17+"
  fetch_jars
  local cfg; cfg="$(write_kafka_config)"
  if [ ! -f "$stack_dir/kafka/data/meta.properties" ]; then
    local cluster_id
    # shellcheck disable=SC2046
    cluster_id="$(java -cp "$libs/*" $(java_opts) kafka.tools.StorageTool random-uuid 2>>"$log_dir/kafka-format.log")"
    # shellcheck disable=SC2046
    java -cp "$libs/*" $(java_opts) kafka.tools.StorageTool format -t "$cluster_id" -c "$cfg" --standalone \
      >>"$log_dir/kafka-format.log" 2>&1 || { cat "$log_dir/kafka-format.log" >&2; die "kafka storage format failed"; }
  fi
  say "starting kafka $KAFKA_VERSION (KRaft) on 127.0.0.1:$kafka_port"
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

stop_one() {
  local name=$1 pidfile=$2
  if ! pid_alive "$pidfile"; then rm -f "$pidfile"; say "$name: not running (from this script)"; return 0; fi
  local pid; pid="$(cat "$pidfile")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then say "$name did not stop in 20s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
  say "$name stopped"
}

status() {
  local ok=0
  if kafka_ready; then say "kafka: up on 127.0.0.1:$kafka_port"; else say "kafka: down"; ok=1; fi
  if redis_ping; then say "redis: up on 127.0.0.1:$redis_port"; else say "redis: down"; ok=1; fi
  say "logs: $log_dir"
  return $ok
}

mkdir -p "$log_dir"
case "${1:-}" in
  start)
    start_redis
    start_kafka
    wait_ready
    status
    ;;
  stop)
    stop_one kafka "$stack_dir/kafka.pid"
    stop_one redis "$stack_dir/redis.pid"
    ;;
  status) status ;;
  logs) ls -1 "$log_dir"/* 2>/dev/null || say "no logs yet in $log_dir" ;;
  *) echo "usage: $0 start|stop|status|logs" >&2; exit 2 ;;
esac
