"""End-to-end pipeline benchmark against a bare consume-and-produce passthrough.

Both run on the same broker in the same run:

* throughput: N claims are preloaded into the input topic, then the consumer side starts;
  the rate is N / (time from start until the N-th output is readable, read_committed).
  The pipeline's sustained rate beside it leaves the worker's start-up out (imports,
  guards, the group join: seconds, which a 30,000-claim run at a few thousand claims/s
  feels): claims routed after the first tenth, over the time they took.
* latency: claims are offered at a fixed rate (default 1,000/s); each carries the time it
  was due to be sent (so a late sender cannot hide a wait), and the reader records
  receive - due for every routed result (p50 / p99). The reader takes records as they
  arrive (`arrivals`), never waiting to fill a batch. Each latency is also split at the
  route stage's decision (`routed_at`): before it, the input, the screen stage and its
  commit, the route stage's fetch and work; after it, the route stage's commit and the
  fetch. The slowest 1 % are printed that way, with the seconds of the run they were due
  in (clustered: a stall; spread: queueing).

The pipeline is `groundwire worker` (both stages, default guards, dedup in Redis, lexical
grounding) in its own process, as deployed. Two ceilings run beside it, each in its own
process on the same broker:

* the bare passthrough: confluent-kafka consuming and producing the same bytes with no
  transactions, the ceiling of this client on this broker;
* the transactional passthrough: the pipeline's Kafka work without its guards. It consumes
  read_committed in batches of the pipeline's size (Settings.batch_size within
  batch_within_s), parses each record with orjson and writes it (serialised again) to two
  topics, and commits the outputs and the consumed offsets in one transaction per batch,
  with the client settings of the stages' transactional producer and consumer. The ratio
  to it is the share of the achievable rate the guards leave.

cpu_us_per_claim: the CPU time (user + system, from /proc) of the worker's whole process
tree (the supervisor and every stage process, plus any reaped child) over the saturated
part of the throughput phase, from the moment the first tenth of the claims is readable
(start-up, imports and the group join excluded) until the last is, divided by the claims
routed in between. The same figure over the offered-load phase is printed beside it, and
so are the worker threads' involuntary context switches per 1,000 claims over the
saturated part: when it grows with the number of stage processes, the CPU per claim grew
because processes outnumber cores, not because the work did.

The broker's and Redis's CPU per claim over the same two windows are printed too (their
processes found by the port they listen on; nan when they run on another host): on a
small machine they share the cores with the worker, so the claims/s the machine can
carry is cores / (worker + broker + Redis CPU per claim), which the bench prints.

Claims cycle through a labelled claims file with real source turns (`--data`; default: the
small synthetic sample in bench/data/; the figures in bench/results/pipeline.md use the
real set bench/data/README.md describes).

Usage: python bench/bench_pipeline.py [--data PATH] [--claims 30000] [--rate 1000] [--seconds 20]
Needs the stack running (scripts/stack.sh start). Last line is the headline:
claims_per_s=... p99_ms=... passthrough_ratio=... txn_passthrough_ratio=... cpu_us_per_claim=...
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import orjson
from confluent_kafka import Consumer, Message, Producer
from confluent_kafka.admin import AdminClient, NewTopic

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from groundwire.streams.admin import create_topics, delete_topics, unled_partitions  # noqa: E402
from groundwire.streams.settings import Settings  # noqa: E402
from tests.support.redis_keys import drop_keys  # noqa: E402  (the benches share it)

PASSTHROUGH = r"""
import sys
from confluent_kafka import Consumer, Producer
bootstrap, src, dst, group = sys.argv[1:5]
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
              "enable.auto.commit": True})
p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "compression.type": "lz4",
              "queue.buffering.max.messages": 500000})
c.subscribe([src])
while True:
    for m in c.consume(500, 0.05):
        if m.error():
            continue
        while True:
            try:
                p.produce(dst, m.value(), m.key())
                break
            except BufferError:
                p.poll(0.05)
    p.poll(0)
"""

# The pipeline's Kafka work without the guards: batches as the stage runner takes them,
# one orjson parse per record, two writes per record, one transaction per batch with the
# consumed offsets. Client settings as streams/kafka.py gives a stage.
TXN_PASSTHROUGH = r"""
import sys
import orjson
from confluent_kafka import Consumer, Producer, TopicPartition
bootstrap, src, dst1, dst2, group = sys.argv[1:6]
batch, within = int(sys.argv[6]), float(sys.argv[7])
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
              "enable.auto.commit": False, "enable.auto.offset.store": False,
              "isolation.level": "read_committed", "fetch.min.bytes": 1,
              "fetch.wait.max.ms": 50})
p = Producer({"bootstrap.servers": bootstrap, "transactional.id": group + ".txn",
              "transaction.timeout.ms": 30000, "enable.idempotence": True, "linger.ms": 5,
              "compression.type": "lz4", "queue.buffering.max.messages": 500000})
p.init_transactions(30)
c.subscribe([src])
while True:
    records = [m for m in c.consume(batch, within) if m.error() is None]
    if not records:
        continue
    p.begin_transaction()
    offsets = {}
    for m in records:
        value = orjson.dumps(orjson.loads(m.value()))
        for dst in (dst1, dst2):
            while True:
                try:
                    p.produce(dst, value, m.key())
                    break
                except BufferError:
                    p.poll(0.05)
        offsets[m.topic(), m.partition()] = m.offset() + 1
    p.send_offsets_to_transaction(
        [TopicPartition(t, part, off) for (t, part), off in offsets.items()],
        c.consumer_group_metadata(),
        30,
    )
    p.commit_transaction(30)
"""


DEFAULT_DATA = REPO / "bench" / "data" / "grounding-sample.jsonl"
CORPUS: list[dict] = []


def load_corpus(path: Path) -> None:
    """The claims `claim()` cycles through: claims with their source turns, one JSON object
    per line (see bench/data/README.md)."""
    with path.open("rb") as f:
        CORPUS[:] = [orjson.loads(line) for line in f]


def claim(i: int, run: str, sent_ns: int | None = None) -> bytes:
    """Claim i of the run: the corpus cycled, one tenant per cycle, so a tenant never sees
    the same text twice (dedup does real candidate work without everything being a copy)."""
    if not CORPUS:
        load_corpus(DEFAULT_DATA)
    row = CORPUS[i % len(CORPUS)]
    doc = {
        "claim_id": f"{run}-{i}",
        "tenant_id": claim_key(i).decode(),
        "user_id": f"user-{i % 500}",
        "content": row["content"],
        "memory_type": "fact",
        "source": ("conversation", "ai_synthesis", "user")[i % 3],
        "source_turns": row["source_turns"],
        "metadata": {"sent_ns": sent_ns or 0},
    }
    return orjson.dumps(doc)


def claim_key(i: int) -> bytes:
    """The partition key of claim i: its tenant, as the pipeline's producers key claims."""
    if not CORPUS:
        load_corpus(DEFAULT_DATA)
    return f"tenant-{i // len(CORPUS)}".encode()


def produce(bootstrap: str, topic: str, values: list[bytes]) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 10, "compression.type": "lz4"})
    for v in values:
        while True:
            try:
                p.produce(topic, v, orjson.loads(v)["tenant_id"].encode())
                break
            except BufferError:
                p.poll(0.05)
    p.flush(120)


def reader(bootstrap: str, topics: list[str]) -> Consumer:
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"bench-reader-{uuid.uuid4().hex}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "isolation.level": "read_committed",
        }
    )
    c.subscribe(topics)
    return c


def arrivals(c: Consumer, max_records: int, wait_s: float) -> list[Message]:
    """What has arrived, at once; when nothing has, wait up to `wait_s` for the first
    record and return as soon as it is there. `consume(n, timeout)` alone returns only when
    n records are there or the timeout passes, so below n it held every record until the
    timeout: the latency reader (consume(500, 0.05)) added 0-50 ms to each sample, ~25 ms
    to the median, and a commit that was readable in 0.5 ms looked 55-65 ms late."""
    batch = c.consume(max_records, 0)
    if not batch:
        batch = c.consume(1, wait_s)
        if batch:
            batch += c.consume(max_records - 1, 0)
    return batch


def count_until(
    c: Consumer, n: int, timeout_s: float, on_first: tuple[int, Callable[[int], None]] | None = None
) -> tuple[int, float]:
    """Read until n records (or the timeout); `on_first=(k, f)` calls f(seen) once, as soon
    as at least k have been read."""
    seen = 0
    deadline = time.monotonic() + timeout_s
    while seen < n and time.monotonic() < deadline:
        seen += sum(1 for m in arrivals(c, 2000, 0.2) if not m.error())
        if on_first is not None and seen >= on_first[0]:
            on_first[1](seen)
            on_first = None
    return seen, time.monotonic()


_CLK_TCK = os.sysconf("SC_CLK_TCK")


def _proc_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds: user + system + reaped children's) from /proc."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        # the command name (field 2) may hold spaces and parentheses: split after it
        fields = raw[raw.rindex(b")") + 2 :].split()
        ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        stats[int(entry.name)] = (int(fields[1]), ticks / _CLK_TCK)
    return stats


def _tree(root: int, stats: dict[int, tuple[int, float]]) -> list[int]:
    """`root` and every live descendant."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            found.append(pid)
            todo.extend(children.get(pid, ()))
    return found


def tree_cpu_s(root: int) -> float:
    """CPU seconds (user + system) of `root` and every live descendant, plus what their
    reaped children used (cutime/cstime), from /proc; 0 for a process that has gone."""
    stats = _proc_table()
    return sum(stats[pid][1] for pid in _tree(root, stats))


def tree_preemptions(root: int) -> int:
    """Involuntary context switches of every thread of `root` and its live descendants:
    how often the kernel took a CPU away from the worker while it could still run. It
    tells oversubscription (more runnable threads than cores) from work that grew."""
    total = 0
    for pid in _tree(root, _proc_table()):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/status", "rb") as f:
                    for line in f:
                        if line.startswith(b"nonvoluntary_ctxt_switches:"):
                            total += int(line.split()[1])
            except OSError:
                continue
    return total


def listener_pid(port: int) -> int | None:
    """The pid of the local process listening on TCP `port` (the broker, Redis), found
    from /proc/net/tcp{,6} and the processes' socket descriptors; None when nothing on
    this host listens there (a remote service) or its descriptors are not readable."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            # local address is HEXIP:HEXPORT; state 0A is LISTEN
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return None
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fds = list(os.scandir(f"/proc/{entry.name}/fd"))
        except OSError:  # gone, or not ours to read
            continue
        for fd in fds:
            try:
                if os.readlink(fd.path) in inodes:
                    return int(entry.name)
            except OSError:  # closed since the listing: the process's other fds still count
                continue
    return None


def _port_of(address: str, default: int) -> int:
    """The port of `host:port` (or of a URL's authority), `default` when none is given."""
    hostport = address.split("//", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1]
    _, sep, port = hostport.rpartition(":")
    return int(port) if sep and port.isdigit() else default


@dataclass
class Services:
    """The local broker's and Redis's processes, to charge their CPU to the claims: on a
    two-core machine they share the cores with the worker, so the claims/s the machine
    can carry is set by all three together, not by the worker alone."""

    broker: int | None
    redis: int | None

    @classmethod
    def find(cls, bootstrap: str, redis_url: str) -> Services:
        first = bootstrap.split(",", 1)[0]
        return cls(listener_pid(_port_of(first, 9092)), listener_pid(_port_of(redis_url, 6379)))

    def cpu_s(self) -> tuple[float, float]:
        stats = _proc_table()

        def of(pid: int | None) -> float:
            return stats[pid][1] if pid is not None and pid in stats else float("nan")

        return of(self.broker), of(self.redis)


def redis_state(redis_url: str) -> str:
    """What the shared Redis already holds before a run: keys left by other work and a
    large append-only file make its rewrites (and their disk traffic) land in the run
    (sessions 4 and 5 each found such leftovers behind a slower or stalled run)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = client.dbsize()
        persistence = client.info("persistence")
    except redis.RedisError as exc:
        return f"redis before: not readable ({type(exc).__name__})"
    finally:
        client.close()
    aof = (
        f"append-only file {persistence.get('aof_current_size', 0) / 1e6:.0f} MB"
        if persistence.get("aof_enabled")
        else "no append-only file"
    )
    return f"redis before: {keys:,} keys, {aof}"


def worker_env(
    settings: Settings,
    bootstrap: str,
    redis_url: str,
    run: str,
    grounding_stage: str = "screen",
    gc_gen0: int = 50_000,
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "GROUNDWIRE_GROUNDING_STAGE": grounding_stage,
            "GROUNDWIRE_GC_GEN0_THRESHOLD": str(gc_gen0),
            "GROUNDWIRE_GC_FREEZE": "true" if gc_gen0 else "false",
            "GROUNDWIRE_BOOTSTRAP_SERVERS": bootstrap,
            "GROUNDWIRE_REDIS_URL": redis_url,
            "GROUNDWIRE_TOPIC_PREFIX": settings.topic_prefix,
            "GROUNDWIRE_PARTITIONS": str(settings.partitions),
            "GROUNDWIRE_WORKER_ID": f"bench-{run}",
            # A group of its own: the stages' static members of an earlier run stay in a
            # shared group until their session times out (10 s), and a new member's
            # first rebalance waits for that (~5 s of "start-up" in back-to-back runs).
            "GROUNDWIRE_CONSUMER_GROUP": f"gwbench-{run}",
            "GROUNDWIRE_METRICS_PORT": "0",
            "GROUNDWIRE_GUARDS__DEDUP__REDIS_PREFIX": f"gwbench:{run}",
            "GROUNDWIRE_GUARDS__CITATION__VERIFY": "false",
        }
    )
    return env


@dataclass(frozen=True, slots=True)
class Sample:
    """One routed claim of the offered-load phase, in ns of the wall clock (one host)."""

    due_ns: int  # when the generator was due to send it
    decided_ns: int  # the route stage's routed_at: decided, not yet committed
    received_ns: int  # when the reader saw it (read_committed: after the commit)

    @property
    def latency_ms(self) -> float:
        return (self.received_ns - self.due_ns) / 1e6


@dataclass
class PipelineRun:
    rate: float  # claims/s, preloaded, from the worker's start to the last routed
    sustained: float  # claims/s, the same from the first tenth routed (start-up excluded)
    samples: list[Sample]  # the offered-load phase, one per routed claim
    cpu_us_per_claim: float  # worker tree, saturated part of the throughput phase
    cpu_us_per_claim_offered: float  # worker tree, the offered-load phase
    generator_cores: float  # this process's own CPU over the offered-load phase, in cores
    preempted_per_1k: float  # worker threads' involuntary context switches per 1,000 claims
    # the local broker's and Redis's CPU per claim (saturated; offered-load phase); nan
    # when the service does not run on this host
    broker_us: tuple[float, float] = (float("nan"), float("nan"))
    redis_us: tuple[float, float] = (float("nan"), float("nan"))
    # wall-clock start and end (time.time()) of the offered-load phase
    offered_window: tuple[float, float] = (0.0, 0.0)


def bench_pipeline(args: argparse.Namespace, run: str) -> PipelineRun:
    settings = Settings(
        bootstrap_servers=args.bootstrap, topic_prefix=f"gwbench.{run}.", partitions=args.partitions
    )
    create_topics(settings)
    t = settings.topics
    proc = None
    # --worker-log: the worker's debug lines (one per batch and stage) go to that file,
    # for batch_report(); None leaves its stderr on the terminal.
    log_file = args.worker_log.open("w") if args.worker_log else None
    try:
        produce(args.bootstrap, t.claims, [claim(i, run) for i in range(args.claims)])
        c = reader(args.bootstrap, [t.approved, t.review, t.blocked, t.dlq])
        started = time.monotonic()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "groundwire.streams.cli",
                "worker",
                "--log-level",
                "debug" if args.worker_log else "warning",
                "--stages",
                args.stages,
            ],
            env=worker_env(
                settings, args.bootstrap, args.redis_url, run, args.grounding_stage, args.gc_gen0
            ),
            stderr=log_file,
        )
        worker_pid = proc.pid
        services = Services.find(args.bootstrap, args.redis_url)
        mark: dict[str, float] = {}

        def warm(n: int) -> None:
            broker_cpu, redis_cpu = services.cpu_s()
            mark.update(
                seen=n,
                cpu=tree_cpu_s(worker_pid),
                t=time.monotonic(),
                preempted=tree_preemptions(worker_pid),
                broker=broker_cpu,
                redis=redis_cpu,
            )

        seen, ended = count_until(c, args.claims, 600, (max(1, args.claims // 10), warm))
        cpu_end = tree_cpu_s(worker_pid)
        broker_end, redis_end = services.cpu_s()
        preempted = tree_preemptions(worker_pid) - mark.get("preempted", 0)
        rate = seen / (ended - started)
        routed = seen - mark.get("seen", seen)
        cpu_us = (cpu_end - mark["cpu"]) / routed * 1e6 if routed > 0 else float("nan")
        sustained = routed / (ended - mark["t"]) if routed > 0 else float("nan")
        preempted_per_1k = preempted / routed * 1e3 if routed > 0 else float("nan")
        # latency at a fixed offered rate, on the warm worker
        usage, wall = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
        offered_from = time.time()
        samples, outputs = offered_load(args, t.claims, c, run)
        offered_window = (offered_from, time.time())
        after = resource.getrusage(resource.RUSAGE_SELF)
        generator_cores = (after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime) / (
            time.monotonic() - wall
        )
        cpu_offered = tree_cpu_s(worker_pid) - cpu_end
        broker_after, redis_after = services.cpu_s()
        c.close()
        offered_us = cpu_offered / outputs * 1e6 if outputs else float("nan")

        def per_claim(cpu_s: float, claims: int) -> float:
            return cpu_s / claims * 1e6 if claims > 0 else float("nan")

        return PipelineRun(
            rate,
            sustained,
            samples,
            cpu_us,
            offered_us,
            generator_cores,
            preempted_per_1k,
            broker_us=(
                per_claim(broker_end - mark.get("broker", float("nan")), routed),
                per_claim(broker_after - broker_end, outputs),
            ),
            redis_us=(
                per_claim(redis_end - mark.get("redis", float("nan")), routed),
                per_claim(redis_after - redis_end, outputs),
            ),
            offered_window=offered_window,
        )
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
        if log_file is not None:
            log_file.close()
        delete_topics(settings)
        # The run's dedup index and claim ledger: without this, every run left its
        # memories (no expiry: they stand for approved memories) in the shared Redis,
        # and a machine that had run the bench a few hundred times carried millions of
        # keys whose AOF rewrites were charged to the next runs' Redis CPU.
        ledger = f"{settings.claim_ledger.redis_prefix}:{settings.topic_prefix}"
        drop_keys(args.redis_url, (f"gwbench:{run}:", ledger))


def offered_load(
    args: argparse.Namespace, topic: str, c: Consumer, run: str
) -> tuple[list[Sample], int]:
    """Offer `rate` claims/s for `seconds`; return each routed claim's timestamps, and how
    many records came out in all (a dlq record has no decision, but cost the worker CPU).

    The load generator must not compete with the pipeline for the machine's cores: the
    sender sleeps until each claim is due, the reader blocks in `consume` (librdkafka
    releases the GIL while it waits) in a thread of its own and only stamps each record's
    arrival, and the records are parsed after the run. An earlier version polled the
    consumer between sends with sub-millisecond timeouts, which librdkafka rounds down
    to zero: the harness spun a whole core of this two-core machine and the pipeline's
    latency included the wait for a CPU that the harness held."""
    total = int(args.rate * args.seconds)
    interval = 1.0 / args.rate
    arrived: list[tuple[int, bytes]] = []
    sending_done = threading.Event()

    def read() -> None:
        deadline = None
        while len(arrived) < total:
            if sending_done.is_set():
                deadline = deadline or time.monotonic() + 60
                if time.monotonic() > deadline:
                    return
            batch = arrivals(c, 500, 0.05)
            now_ns = time.time_ns()  # one stamp per call: the records came in together
            arrived.extend((now_ns, m.value()) for m in batch if not m.error())

    reading = threading.Thread(target=read, name="bench-reader", daemon=True)
    reading.start()
    p = Producer({"bootstrap.servers": args.bootstrap, "linger.ms": 1})
    base = 10_000_000
    start, start_ns = time.perf_counter(), time.time_ns()
    interval_ns = 1e9 / args.rate
    for sent in range(total):
        wait = start + sent * interval - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        i = base + sent
        # Stamped with when the claim was due, not when it went out: a generator that
        # falls behind (descheduled, a full send queue) must not hide that wait from the
        # latency (coordinated omission); it counts against the pipeline.
        due_ns = start_ns + round(sent * interval_ns)
        p.produce(topic, claim(i, run, due_ns), claim_key(i))
        p.poll(0)
    p.flush(30)
    sending_done.set()
    reading.join()
    samples = (_sample(received_ns, value) for received_ns, value in arrived)
    return [x for x in samples if x is not None], len(arrived)


def _sample(received_ns: int, value: bytes) -> Sample | None:
    doc = orjson.loads(value)
    due_ns = doc.get("claim", {}).get("metadata", {}).get("sent_ns", 0)
    routed_at = doc.get("routed_at")
    if not due_ns or not routed_at:
        return None  # a dlq record: no claim, no decision
    decided = datetime.fromisoformat(routed_at.replace("Z", "+00:00"))
    return Sample(due_ns, int(decided.timestamp() * 1e9), received_ns)


def tail_report(samples: list[Sample], share: float = 0.01) -> str:
    """Where the slowest claims waited: before the route stage decided them (sending,
    the screen stage, its commit, the route stage's fetch and work) or after (the route
    stage's commit until read_committed shows it); and whether they cluster in a few
    seconds of the run (a stall of something shared: broker, Redis, the host) or spread
    over many (steady queueing)."""
    if not samples:
        return "tail: no samples"
    ordered = sorted(samples, key=lambda x: x.latency_ms)
    tail = ordered[-max(1, int(len(ordered) * share)) :]
    start = min(x.due_ns for x in samples)
    before = statistics.median((x.decided_ns - x.due_ns) / 1e6 for x in tail)
    after = statistics.median((x.received_ns - x.decided_ns) / 1e6 for x in tail)
    seconds = sorted({(x.due_ns - start) // 1_000_000_000 for x in tail})
    all_before = statistics.median((x.decided_ns - x.due_ns) / 1e6 for x in samples)
    all_after = statistics.median((x.received_ns - x.decided_ns) / 1e6 for x in samples)
    return (
        f"all claims: median {all_before:.0f} ms from due to decided, {all_after:.0f} ms from "
        f"decided to readable\n"
        f"tail (slowest {share:.0%}, {len(tail)} claims, from {tail[0].latency_ms:.0f} ms): "
        f"median {before:.0f} ms from due to decided, {after:.0f} ms from decided to "
        f"readable; due in {len(seconds)} distinct second(s) of the run: "
        + ", ".join(f"+{s}s" for s in seconds[:12])
        + (" ..." if len(seconds) > 12 else "")
    )


_BATCH_LINE = re.compile(
    r"stage (?P<stage>\w+): batch=(?P<n>\d+) process=(?P<process>[\d.]+)ms "
    r"commit=(?P<commit>[\d.]+)ms linger=(?P<linger>[\d.]+)ms "
    r"age_mean=(?P<age>[\d.]+|nan)(?:ms)? age_max=(?P<age_max>[\d.]+|nan)(?:ms)? "
    r"closed=(?P<closed>[\d.]+)"
)


def batch_report(path: Path, window: tuple[float, float], samples: list[Sample]) -> str:
    """A routed claim's latency, split by the stages' own debug lines (`--worker-log`)
    over the batches that closed in the offered-load phase: per stage, the wait before
    its batch closed (for screen, since the claim was due to be sent; for route, since
    screen wrote the record, so screen's commit is in it), the linger part of that wait,
    processing, and the commit. Means are per claim (a batch counts once per record), the
    p99 columns are the claim-weighted 99th percentile of the per-batch figure. The rest
    of a claim's latency (the reader's fetch after route's commit) is what is left of
    the measured median."""
    lo, hi = window
    rows: dict[str, list[tuple[int, float, float, float, float, float]]] = {}
    for line in path.read_text(errors="replace").splitlines():
        m = _BATCH_LINE.search(line)
        if m is None or not lo <= float(m["closed"]) <= hi + 5:
            continue
        age = float(m["age"])
        rows.setdefault(m["stage"], []).append(
            (
                int(m["n"]),
                age,
                float(m["linger"]),
                float(m["process"]),
                float(m["commit"]),
                float(m["age_max"]),
            )
        )

    def weighted(values: list[tuple[int, float]], q: float | None) -> float:
        values = [(n, v) for n, v in values if v == v]
        total = sum(n for n, _ in values)
        if not total:
            return float("nan")
        if q is None:
            return sum(n * v for n, v in values) / total
        need, seen = q * total, 0
        for n, v in sorted(values, key=lambda x: x[1]):
            seen += n
            if seen >= need:
                return v
        return values[-1][1]

    lines = [
        "per-claim split at the offered rate (worker debug lines; ms, mean / claim-weighted p99):"
    ]
    for stage, batch in rows.items():
        sizes = sorted(b[0] for b in batch)
        parts = []
        names = ("wait to batch close", "of it linger", "process", "commit")
        for i, name in enumerate(names, start=1):
            col = [(b[0], b[i]) for b in batch]
            parts.append(f"{name} {weighted(col, None):.1f} / {weighted(col, 0.99):.1f}")
        lines.append(
            f"  {stage}: {len(batch)} batches, size median {statistics.median(sizes):.0f} "
            f"max {sizes[-1]}; " + ", ".join(parts)
        )
    if samples:
        after = statistics.median((x.received_ns - x.decided_ns) / 1e6 for x in samples)
        lines.append(f"  route decided -> readable (its commit, the reader's fetch): {after:.1f}")
    return "\n".join(lines)


def bench_passthrough(args: argparse.Namespace, run: str) -> float:
    admin = AdminClient({"bootstrap.servers": args.bootstrap})
    src, dst = f"gwbench.{run}.pt.in", f"gwbench.{run}.pt.out"
    for f in admin.create_topics(
        [NewTopic(src, args.partitions, 1), NewTopic(dst, args.partitions, 1)]
    ).values():
        f.result()
    # producing starts only once every leader serves its partition (streams/admin.py)
    unled_partitions(admin, [(src, args.partitions), (dst, args.partitions)], 30)
    proc = None
    try:
        produce(args.bootstrap, src, [claim(i, run) for i in range(args.claims)])
        c = reader(args.bootstrap, [dst])
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-c", PASSTHROUGH, args.bootstrap, src, dst, f"pt-{run}"]
        )
        seen, ended = count_until(c, args.claims, 600)
        c.close()
        return seen / (ended - started)
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
        for f in admin.delete_topics([src, dst]).values():
            f.result()


def bench_txn_passthrough(args: argparse.Namespace, run: str) -> float:
    """Claims/s of TXN_PASSTHROUGH: N preloaded claims in, 2N committed records out."""
    admin = AdminClient({"bootstrap.servers": args.bootstrap})
    src, dst1, dst2 = (f"gwbench.{run}.txn.{name}" for name in ("in", "out1", "out2"))
    topics = [NewTopic(name, args.partitions, 1) for name in (src, dst1, dst2)]
    for f in admin.create_topics(topics).values():
        f.result()
    unled_partitions(admin, [(t.topic, args.partitions) for t in topics], 30)
    settings = Settings()
    proc = None
    try:
        produce(args.bootstrap, src, [claim(i, run) for i in range(args.claims)])
        c = reader(args.bootstrap, [dst1, dst2])
        started = time.monotonic()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                TXN_PASSTHROUGH,
                args.bootstrap,
                src,
                dst1,
                dst2,
                f"txn-{run}",
                str(settings.batch_size),
                str(settings.batch_within_s),
            ]
        )
        seen, ended = count_until(c, 2 * args.claims, 600)
        c.close()
        return seen / 2 / (ended - started)
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(10)
        for f in admin.delete_topics([src, dst1, dst2]).values():
            f.result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--bootstrap", default=os.environ.get("GROUNDWIRE_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    )
    ap.add_argument(
        "--redis-url", default=os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    ap.add_argument("--claims", type=int, default=30_000)
    ap.add_argument("--partitions", type=int, default=6)
    ap.add_argument("--rate", type=float, default=1000.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--stages", default="screen,route", help="worker --stages (processes)")
    ap.add_argument(
        "--gc-gen0",
        type=int,
        default=50_000,
        help="GROUNDWIRE_GC_GEN0_THRESHOLD (0 = Python's default GC, no freeze)",
    )
    ap.add_argument(
        "--grounding-stage",
        choices=("screen", "route"),
        default="screen",
        help="where grounding runs",
    )
    ap.add_argument(
        "--worker-log",
        type=Path,
        default=None,
        help="run the worker at debug level, its log to this file, and split the latency "
        "by its batch lines (costs the worker some CPU: for diagnosis, not for A/B runs)",
    )
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="JSONL of claims with source turns (default: the synthetic sample in bench/data/)",
    )
    args = ap.parse_args()
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    load_corpus(args.data)
    run = uuid.uuid4().hex[:8]
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.platform()}, "
        f"Python {platform.python_version()}"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(redis_state(args.redis_url))
    pt_rate = bench_passthrough(args, run)
    print(f"passthrough (confluent-kafka, no transactions): {pt_rate:,.0f} claims/s")
    txn_rate = bench_txn_passthrough(args, run)
    print(
        "transactional passthrough (read_committed, orjson parse, 2 writes per claim, one "
        f"transaction per batch of {Settings().batch_size}): {txn_rate:,.0f} claims/s"
    )
    result = bench_pipeline(args, run)
    rate = result.rate
    lat = sorted(x.latency_ms for x in result.samples)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[int(len(lat) * 0.99) - 1] if lat else float("nan")
    print(
        f"pipeline (groundwire worker --stages {args.stages}, grounding in "
        f"{args.grounding_stage}, gc gen0 {args.gc_gen0 or 'default'}, default guards): "
        f"{rate:,.0f} claims/s from the worker's start, {result.sustained:,.0f} claims/s "
        "once the first tenth was routed"
    )
    print(
        f"latency at {args.rate:,.0f} claims/s offered for {args.seconds:.0f}s: "
        f"p50={p50:.1f} ms p99={p99:.1f} ms over {len(lat)} claims "
        f"(load generator: {result.generator_cores:.2f} cores)"
    )
    print(tail_report(result.samples))
    if args.worker_log:
        print(batch_report(args.worker_log, result.offered_window, result.samples))
    print(
        f"worker CPU (supervisor + stage processes): {result.cpu_us_per_claim:.0f} us/claim "
        f"saturated, {result.cpu_us_per_claim_offered:.0f} us/claim at "
        f"{args.rate:,.0f} claims/s offered; {result.preempted_per_1k:.0f} involuntary context "
        "switches per 1,000 claims saturated"
    )
    machine_us = result.cpu_us_per_claim + result.broker_us[0] + result.redis_us[0]
    cores = os.cpu_count() or 1
    print(
        f"broker CPU: {result.broker_us[0]:.0f} us/claim saturated, {result.broker_us[1]:.0f} "
        f"at {args.rate:,.0f}/s; redis CPU: {result.redis_us[0]:.0f} us/claim saturated, "
        f"{result.redis_us[1]:.0f} at {args.rate:,.0f}/s (nan: not on this host)"
    )
    if machine_us == machine_us:
        print(
            f"worker + broker + redis: {machine_us:.0f} us/claim saturated, so {cores} cores "
            f"carry at most {cores * 1e6 / machine_us:,.0f} claims/s with nothing else running"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"claims_per_s={rate:.0f} p99_ms={p99:.1f} passthrough_ratio={rate / pt_rate:.3f} "
        f"txn_passthrough_ratio={rate / txn_rate:.3f} "
        f"cpu_us_per_claim={result.cpu_us_per_claim:.0f}"
    )


if __name__ == "__main__":
    main()
