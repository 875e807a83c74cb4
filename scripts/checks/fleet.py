#!/usr/bin/env python3
"""The render server as a fleet: three `lamina serve` processes sharing jobs
in a real PostgreSQL (a private cluster this script makes with Debian's
initdb and pg_ctl, on a loopback port, with a password in a file), and
webhooks to a local receiver.

    LAMINA=.build/debug/lamina scripts/checks/fleet.py [--report FILE]

- a job submitted to one replica is seen, fetched and cancelled through the
  others; a cancelled job stops on the replica drawing it;
- a replica killed with SIGKILL while drawing a job loses nothing: another
  takes it over after its lease, and its file is byte for byte what
  `lamina frames` writes;
- PostgreSQL stopped and started again under load: the jobs routes answer
  503 with Retry-After meanwhile, /render goes on, no 500 and no crash,
  and the fleet recovers;
- 1,000 jobs through three replicas: each done exactly once (the pictures
  the fleet drew add up to the jobs);
- webhooks: signed (HMAC-SHA256 of the body), retried after a 500, never
  sent to a host off --callback-hosts;
- the memory store's single-process behaviour is scripts/checks/server.py's.

Without PostgreSQL's server programs every check is a visible skip.
Prints one line per check and ends with "N passed, M failed[, K skipped]".
"""
import concurrent.futures
import hashlib
import hmac
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, skip  # noqa: E402
from server import LAMINA, ROOT, Server, error_of  # noqa: E402

CLUSTER = os.path.join(ROOT, "scripts", "setup", "postgres-cluster.sh")
JSON = {"Content-Type": "application/json"}
WEBHOOK_KEY = "webhook-test-key"
REPORT = {}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def animation(frames_side=160, duration=1, color="#3366cc"):
    return json.dumps({"width": frames_side, "height": frames_side, "sublayers": [
        {"bounds": [0, 0, frames_side // 2, frames_side // 3], "position": [frames_side // 2, frames_side // 2],
         "backgroundColor": color, "cornerRadius": 8,
         "animations": [{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 3.14, "duration": duration}]}]}).encode()


def slow_animation():
    """A job that takes seconds on any build: big blurred shadows, 4 s of animation."""
    return json.dumps({"width": 1000, "height": 800, "sublayers": [
        {"bounds": [0, 0, 700, 500], "position": [500, 400], "cornerRadius": 60, "backgroundColor": "#cc6633",
         "shadowOpacity": 0.8, "shadowRadius": 40, "shadowOffset": [0, 16],
         "animations": [{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.28, "duration": 4}]}]}).encode()


class Receiver(http.server.BaseHTTPRequestHandler):
    """Webhook receiver: records each delivery; answers 500 to a job's
    first delivery when its path says /flaky."""
    deliveries = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with Receiver.lock:
            Receiver.deliveries.append({"path": self.path, "body": body,
                                        "signature": self.headers.get("Lamina-Signature"),
                                        "delivery": self.headers.get("Lamina-Delivery")})
            seen = sum(1 for d in Receiver.deliveries if d["path"] == self.path)
        status = 500 if self.path.startswith("/flaky") and seen == 1 else 204
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Fleet:
    def __init__(self, scratch, replicas=3, lease=2, extra=()):
        self.scratch = scratch
        self.pg = os.path.join(scratch, "pg")
        self.pg_port = free_port()
        subprocess.run([CLUSTER, "start", self.pg, str(self.pg_port)], check=True)
        self.env = {"LAMINA_JOBS_STORE": f"postgres://lamina@127.0.0.1:{self.pg_port}/lamina",
                    "LAMINA_JOBS_STORE_PASSWORD_FILE": os.path.join(self.pg, "password"),
                    "LAMINA_WEBHOOK_KEY": WEBHOOK_KEY}
        self.args = ["--workers", "1", "--queue", "8", "--backend", "cpu", "--job-lease", str(lease), "--max-jobs", "2000",
                     "--job-deadline", "600", "--callback-attempts", "3", "--callback-retry-delay", "0.3"] + list(extra)
        self.servers = [Server(*self.args, env=self.env) for _ in range(replicas)]

    def wait_ready(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if all(s.process.poll() is None and s.request("GET", "/readyz")[0] == 200 for s in self.servers):
                return True
            time.sleep(0.1)
        return False

    def stop(self):
        for s in self.servers:
            s.stop(signal.SIGKILL if s.process.poll() is None else signal.SIGTERM, timeout=10)
        subprocess.run([CLUSTER, "stop", self.pg], check=False)


def wait_ready(server, timeout=30):
    """Waits until `server` says it is ready (a shared store: its schema is in)."""
    deadline = time.time() + timeout
    while time.time() < deadline and server.request("GET", "/readyz")[0] != 200:
        time.sleep(0.1)
    return server.request("GET", "/readyz")[0] == 200


def submit(server, body, query="fps=10&format=webp", headers=None):
    status, h, answer = server.request("POST", "/jobs?" + query, body, {**JSON, **(headers or {})})
    return status, (json.loads(answer) if answer else {}), h


def status_of(server, job):
    status, _, body = server.request("GET", f"/jobs/{job}")
    return status, (json.loads(body) if body else {})


def wait_for(servers, job, stages, timeout=120):
    deadline = time.time() + timeout
    k = 0
    while time.time() < deadline:
        server = servers[k % len(servers)]
        k += 1
        if server.process.poll() is not None:
            continue
        status, job_status = status_of(server, job)
        if status == 200 and job_status.get("stage") in stages:
            return job_status
        time.sleep(0.05)
    return {}


def gauge(server, name):
    if server.process.poll() is not None:
        return 0
    _, _, body = server.request("GET", "/metrics", port=server.metrics_port)
    return sum(float(line.split()[-1]) for line in body.decode().splitlines() if line.startswith(name) and not line.startswith("#"))


def memory_store_webhooks(hook):
    """One replica, jobs in memory: the same signed, retried webhook."""
    server = Server("--workers", "1", "--backend", "cpu", "--callback-hosts", "127.0.0.1,*.example.com",
                    "--callback-retry-delay", "0.2", env={"LAMINA_WEBHOOK_KEY": WEBHOOK_KEY})
    try:
        status, job, _ = submit(server, animation(color="#4477aa"), f"fps=10&callback={hook}/flaky/memory")
        deadline = time.time() + 30
        while time.time() < deadline and status_of(server, job.get("id"))[1].get("callback", {}).get("state") != "delivered":
            time.sleep(0.05)
        attempts = [d for d in Receiver.deliveries if d["path"] == "/flaky/memory"]
        signed = all(d["signature"] == "sha256=" + hmac.new(WEBHOOK_KEY.encode(), d["body"], hashlib.sha256).hexdigest()
                     for d in attempts)
        _, recorded = status_of(server, job.get("id"))
        check("with the memory store too: a webhook signed, retried after a 500, recorded in the job's status",
              status == 202 and len(attempts) == 2 and signed and recorded.get("callback", {}).get("attempts") == 2,
              (status, len(attempts), recorded.get("callback")))
        status, _, body = server.request("POST", "/jobs?fps=10&callback=http://intranet.local/x", animation(), JSON)
        check("and a callback host off the list is 422", status == 422 and error_of(body).get("code") == "invalidCallback",
              (status, body))
    finally:
        server.stop()
    refused = subprocess.run([LAMINA, "serve", "--port", "0", "--callback-hosts", "example.com"], capture_output=True, text=True,
                             env={k: v for k, v in os.environ.items() if k != "LAMINA_WEBHOOK_KEY"}, timeout=60)
    check("--callback-hosts without LAMINA_WEBHOOK_KEY stops the start (deliveries are signed)",
          refused.returncode != 0 and "LAMINA_WEBHOOK_KEY" in refused.stderr, refused.stderr[-300:])


def main():
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{receiver.server_address[1]}"
    memory_store_webhooks(hook)
    if not os.path.exists(CLUSTER) or not any(os.path.exists(f"/usr/lib/postgresql/{v}/bin/initdb") for v in os.listdir("/usr/lib/postgresql")
                                                if os.path.isdir("/usr/lib/postgresql")):
        for name in ["jobs shared across replicas", "takeover after SIGKILL", "PostgreSQL restart", "1,000 jobs", "webhooks"]:
            skip(name, "no PostgreSQL server programs (apt-get install postgresql)")
        return
    with tempfile.TemporaryDirectory() as scratch:
        # The cluster runs as the postgres user where this runs as root.
        os.chmod(scratch, 0o755)
        fleet = Fleet(scratch, extra=["--callback-hosts", "127.0.0.1"])
        try:
            check("three replicas share one PostgreSQL and are ready", fleet.wait_ready(),
                  [s.log()[-500:] for s in fleet.servers])
            shared_jobs(fleet)
            takeover(fleet, scratch)
            webhooks(fleet, hook)
            thousand(fleet)
            postgres_restart(fleet)
        finally:
            fleet.stop()
        refusals(scratch)
    receiver.shutdown()


def shared_jobs(fleet):
    a, b, c = fleet.servers
    status, job, headers = submit(a, animation())
    check("POST /jobs on replica 1 is 202 with the job", status == 202 and len(job.get("id", "")) == 32, (status, job))
    done = wait_for([b], job["id"], ("done",))
    check("replica 2 sees it through to done", done.get("stage") == "done" and done.get("frames") == 10, done)
    s2, _, file2 = b.request("GET", f"/jobs/{job['id']}/result")
    s3, _, file3 = c.request("GET", f"/jobs/{job['id']}/result")
    check("replicas 2 and 3 give the same file", s2 == 200 and s3 == 200 and file2 == file3 and file2[:4] == b"RIFF", (s2, s3))
    status, _, _ = c.request("DELETE", f"/jobs/{job['id']}")
    gone = [status_of(s, job["id"])[0] for s in fleet.servers]
    check("DELETE on replica 3 forgets it everywhere", status == 204 and gone == [404, 404, 404], (status, gone))

    status, slow, _ = submit(a, slow_animation(), "fps=10")
    drawing = wait_for(fleet.servers, slow.get("id"), ("rendering",), timeout=60)
    # One worker of the fleet is drawing it. (The stage says rendering as
    # soon as a replica claims the job, a moment before its worker starts:
    # on a loaded machine one sample of the gauge can fall in between.)
    busy_before, looked = [], time.time()
    while time.time() - looked < 5:
        busy_before = [gauge(s, "lamina_workers_busy") for s in fleet.servers]
        if sum(busy_before) == 1:
            break
        time.sleep(0.05)
    started = time.time()
    status, _, _ = b.request("DELETE", f"/jobs/{slow.get('id')}")
    freed = False
    while time.time() - started < 15:
        if sum(gauge(s, "lamina_workers_busy") for s in fleet.servers) == 0:
            freed = True
            break
        time.sleep(0.1)
    check("a job cancelled on one replica stops on the one drawing it (its worker is free within a lease)",
          status == 204 and drawing.get("stage") == "rendering" and sum(busy_before) == 1 and freed,
          (status, drawing.get("stage"), busy_before, time.time() - started))


def takeover(fleet, scratch):
    body = slow_animation()
    scene = os.path.join(scratch, "slow.json")
    with open(scene, "wb") as f:
        f.write(body)
    status, job, _ = submit(fleet.servers[0], body, "fps=20&format=apng")
    # Kill the replica that draws it as soon as one is seen drawing.
    deadline = time.time() + 60
    victim = None
    while victim is None and time.time() < deadline:
        victim = next((server for server in fleet.servers if gauge(server, "lamina_workers_busy") >= 1), None)
        if victim is None:
            time.sleep(0.01)
    drawing = status_of(victim, job.get("id"))[1] if victim else {}
    killed_at = time.time()
    if victim:
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait()
    survivors = [s for s in fleet.servers if s is not victim]
    done = wait_for(survivors, job.get("id"), ("done", "failed"), timeout=180)
    REPORT["takeover_seconds"] = round(time.time() - killed_at, 1)
    check("a replica killed with SIGKILL while drawing a job: another finishes it",
          victim is not None and drawing.get("stage") == "rendering" and done.get("stage") == "done", (victim is not None, done))
    takeovers = sum(gauge(s, "lamina_job_lease_takeovers_total") for s in survivors)
    check("the takeover is counted (lamina_job_lease_takeovers_total)", takeovers >= 1, takeovers)
    status, _, result = survivors[0].request("GET", f"/jobs/{job.get('id')}/result")
    out = os.path.join(scratch, "slow.png")
    subprocess.run([LAMINA, "frames", scene, "--output", out, "--fps", "20", "--backend", "cpu", "--quiet"], check=True)
    with open(out, "rb") as f:
        expected = f.read()
    check(f"its file is byte for byte lamina frames' ({len(expected)} bytes; taken over and done {REPORT['takeover_seconds']} s after the kill)",
          status == 200 and result == expected, (status, len(result), len(expected)))
    # The fleet is three again.
    if victim:
        fleet.servers = survivors + [Server(*fleet.args, env=fleet.env)]
    check("a new replica joins the fleet", fleet.wait_ready(), "")


def webhooks(fleet, hook):
    a, b, _ = fleet.servers
    status, job, _ = submit(a, animation(color="#22aa44"), f"fps=10&callback={hook}/hooks/ok")
    done = wait_for(fleet.servers, job.get("id"), ("done",))
    deadline = time.time() + 20
    while time.time() < deadline and not any(d["path"] == "/hooks/ok" for d in Receiver.deliveries):
        time.sleep(0.05)
    delivery = next((d for d in Receiver.deliveries if d["path"] == "/hooks/ok"), None)
    expected = "sha256=" + hmac.new(WEBHOOK_KEY.encode(), delivery["body"], hashlib.sha256).hexdigest() if delivery else None
    sent = json.loads(delivery["body"]) if delivery else {}
    check("a job's webhook is POSTed when it ends, its status JSON signed with HMAC-SHA256",
          delivery is not None and delivery["signature"] == expected and sent.get("id") == job.get("id")
          and sent.get("stage") == "done" and len(delivery.get("delivery") or "") == 32, (delivery, expected))

    status, job, _ = submit(b, animation(color="#aa2244"), "fps=10", headers={"Lamina-Callback": f"{hook}/flaky/1"})
    deadline = time.time() + 30
    while time.time() < deadline and sum(1 for d in Receiver.deliveries if d["path"] == "/flaky/1") < 2:
        time.sleep(0.05)
    attempts = [d for d in Receiver.deliveries if d["path"] == "/flaky/1"]
    time.sleep(0.3)
    _, recorded = status_of(fleet.servers[2], job.get("id"))
    callback = recorded.get("callback", {})
    check("a webhook answered 500 is retried, with the same Lamina-Delivery, and its status records it",
          len(attempts) == 2 and attempts[0]["delivery"] == attempts[1]["delivery"]
          and callback.get("state") == "delivered" and callback.get("attempts") == 2, (len(attempts), callback))
    before = len(Receiver.deliveries)
    status, _, body = a.request("POST", "/jobs?fps=10&callback=http://169.254.169.254/latest", animation(), JSON)
    check("a callback to a host off --callback-hosts is 422 and nothing is sent",
          status == 422 and error_of(body).get("code") == "invalidCallback" and len(Receiver.deliveries) == before, (status, body))
    status, _, body = a.request("POST", "/jobs?fps=10&callback=file:///etc/passwd", animation(), JSON)
    check("a callback that is not http(s) is 422", status == 422 and error_of(body).get("code") == "invalidCallback", (status, body))
    delivered = sum(gauge(s, 'lamina_webhook_deliveries_total{outcome="delivered"}') for s in fleet.servers)
    check("deliveries are counted (lamina_webhook_deliveries_total)", delivered >= 2, delivered)


def thousand(fleet):
    tiny = json.dumps({"width": 16, "height": 16, "sublayers": [
        {"bounds": [0, 0, 8, 8], "position": [8, 8], "backgroundColor": "#334455",
         "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.1}]}]}).encode()
    drawn_before = sum(gauge(s, "lamina_pictures_rendered_total") for s in fleet.servers)
    started = time.time()

    def one(k):
        server = fleet.servers[k % 3]
        status, job, _ = submit(server, tiny, "fps=10&duration=0.1&format=apng")
        return job.get("id") if status == 202 else f"refused {status}"

    with concurrent.futures.ThreadPoolExecutor(max_workers=12) as pool:
        ids = list(pool.map(one, range(1000)))
    accepted = [i for i in ids if len(i) == 32]
    deadline = time.time() + 300
    pending = set(accepted)
    k = 0
    while pending and time.time() < deadline:
        for job in list(pending)[:50]:
            status, s = status_of(fleet.servers[k % 3], job)
            k += 1
            if s.get("stage") in ("done", "failed"):
                pending.discard(job)
        time.sleep(0.05)
    elapsed = time.time() - started
    REPORT["thousand_seconds"] = round(elapsed, 1)
    REPORT["jobs_per_second"] = round(1000 / elapsed, 1)
    drawn = sum(gauge(s, "lamina_pictures_rendered_total") for s in fleet.servers) - drawn_before
    per_replica = [gauge(s, "lamina_pictures_rendered_total") for s in fleet.servers]
    check(f"1,000 jobs through three replicas: all accepted and done in {elapsed:.1f} s ({1000 / elapsed:.0f} jobs/s)",
          len(accepted) == 1000 and not pending, (len(accepted), len(pending), ids[:3]))
    check("each drawn exactly once: the fleet drew 1,000 pictures, every replica its share",
          drawn == 1000 and all(n > 0 for n in per_replica), (drawn, per_replica))
    time.sleep(1.5)  # a housekeeping round counts the fleet's jobs
    done = [gauge(s, 'lamina_jobs{stage="done"}') for s in fleet.servers]
    check("every replica reports the fleet's jobs (lamina_jobs{stage}), not its own", min(done) >= 1000 and len(set(done)) == 1, done)


def postgres_restart(fleet):
    a, b, c = fleet.servers
    statuses = []
    stop = threading.Event()

    def load():
        k = 0
        while not stop.is_set():
            server = fleet.servers[k % 3]
            k += 1
            try:
                s, h, _ = server.request("POST", "/jobs?fps=10", animation(80), JSON, timeout=30)
                statuses.append(("jobs", s, h.get("retry-after")))
                s, _, _ = server.request("POST", "/render", json.dumps({"width": 20, "height": 20, "backgroundColor": "#123456"}).encode(),
                                         JSON, timeout=30)
                statuses.append(("render", s, None))
            except Exception as error:  # a refused connection would be a crash
                statuses.append(("error", str(error), None))
            time.sleep(0.02)

    worker = threading.Thread(target=load)
    worker.start()
    time.sleep(1)
    subprocess.run([CLUSTER, "stop", fleet.pg], check=True)
    down_from = len(statuses)
    time.sleep(3)
    down = statuses[down_from:]
    subprocess.run([CLUSTER, "resume", fleet.pg, str(fleet.pg_port)], check=True)
    time.sleep(3)
    stop.set()
    worker.join()
    check("while PostgreSQL is down, POST /jobs is 503 with Retry-After",
          any(kind == "jobs" and s == 503 and retry for kind, s, retry in down), down[:6])
    check("and /render goes on (200)", any(kind == "render" and s == 200 for kind, s, _ in down), down[:6])
    check("no 500 and no dropped connection before, during or after",
          all(kind != "error" and s != 500 for kind, s, _ in statuses), [x for x in statuses if x[0] == "error" or x[1] == 500][:5])
    check("every replica is still running", all(s.process.poll() is None for s in fleet.servers), "")
    status, job, _ = submit(b, animation(color="#5555ff"))
    done = wait_for(fleet.servers, job.get("id"), ("done",))
    check("after PostgreSQL is back the fleet takes and finishes jobs again", status == 202 and done.get("stage") == "done", (status, done))


def run_psql(pg, port, sql):
    bin_dir = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
    command = [f"/usr/lib/postgresql/{bin_dir}/bin/psql", "-h", pg, "-p", str(port), "-U", "postgres", "-d", "lamina", "-q", "-c", sql]
    if os.getuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    subprocess.run(command, check=True, capture_output=True)


def refusals(scratch):
    run = subprocess.run([LAMINA, "serve", "--jobs-store", "postgres://lamina:secret@127.0.0.1:1/lamina"],
                         capture_output=True, text=True, timeout=60)
    check("a password in --jobs-store is refused (argv is visible to every user)",
          run.returncode != 0 and "password" in run.stderr, run.stderr[-300:])
    # PostgreSQL not there at start: alive, not ready, saying why; ready once it is.
    port = free_port()
    pg = os.path.join(scratch, "late")
    os.makedirs(pg)
    password = os.path.join(scratch, "late-password")
    with open(password, "w") as f:
        f.write("not-yet")
    server = Server("--workers", "1", "--backend", "cpu", env={
        "LAMINA_JOBS_STORE": f"postgres://lamina@127.0.0.1:{port}/lamina", "LAMINA_JOBS_STORE_PASSWORD_FILE": password})
    try:
        time.sleep(1)
        health, _, _ = server.request("GET", "/healthz")
        ready, _, body = server.request("GET", "/readyz")
        jobs, headers, _ = server.request("POST", "/jobs?fps=10", animation(), JSON)
        render, _, _ = server.render(json.dumps({"width": 20, "height": 20}).encode())
        check("PostgreSQL unreachable at start: alive, readiness 503 jobStoreUnreachable, jobs 503 with Retry-After, /render 200",
              health == 200 and ready == 503 and json.loads(body).get("reason") == "jobStoreUnreachable"
              and jobs == 503 and headers.get("retry-after") and render == 200, (health, ready, body, jobs, render))
        os.rmdir(pg)
        subprocess.run([CLUSTER, "start", pg, str(port)], check=True)
        # The password was read at start; the cluster made its own: PGPASSWORD
        # cannot change under a running server, so the role takes the first.
        run_psql(pg, port, "ALTER ROLE lamina PASSWORD 'not-yet'")
        check("and ready once PostgreSQL answers (the server retried)", wait_ready(server), server.log()[-500:])
        server.stop()
        results_directory(port, password, scratch)
        result_bytes_bound(port, password)
        # A schema newer than this server (a newer lamina migrated it): not
        # ready, saying so, rather than writing rows it does not understand.
        run_psql(pg, port, "UPDATE lamina_schema SET version = 99")
        newer = Server("--workers", "1", "--backend", "cpu", env={
            "LAMINA_JOBS_STORE": f"postgres://lamina@127.0.0.1:{port}/lamina", "LAMINA_JOBS_STORE_PASSWORD_FILE": password})
        try:
            time.sleep(1.5)
            ready, _, body = newer.request("GET", "/readyz")
            check("a schema newer than the server's: not ready, and the log says why",
                  ready == 503 and "newer than this server" in newer.log(), (ready, newer.log()[-300:]))
        finally:
            newer.stop()
    finally:
        server.stop()
        subprocess.run([CLUSTER, "stop", pg], check=False)


def result_bytes_bound(port, password):
    """--job-result-bytes bounds the fleet's files together: a second file
    that does not fit with the first drops the first; a file over the bound
    alone fails its job, saying why."""
    server = Server("--workers", "1", "--backend", "cpu", "--job-result-bytes", "10000", env={
        "LAMINA_JOBS_STORE": f"postgres://lamina@127.0.0.1:{port}/lamina", "LAMINA_JOBS_STORE_PASSWORD_FILE": password})
    try:
        wait_ready(server)
        _, first, _ = submit(server, animation(color="#123456"))
        wait_for([server], first.get("id"), ("done",))
        _, second, _ = submit(server, animation(color="#654321"))
        done = wait_for([server], second.get("id"), ("done",))
        gone = status_of(server, first.get("id"))[0]
        check("--job-result-bytes: a second file that does not fit beside the first drops the first (6 KB each, 10 KB kept)",
              done.get("stage") == "done" and gone == 404 and server.request("GET", f"/jobs/{second.get('id')}/result")[0] == 200,
              (done.get("stage"), gone))
        _, big, _ = submit(server, animation(frames_side=400, color="#336699"), "fps=30&format=apng")
        failed = wait_for([server], big.get("id"), ("failed", "done"))
        check("and a file over the bound alone fails its job with limitExceeded",
              failed.get("stage") == "failed" and failed.get("error", {}).get("code") == "limitExceeded", failed)
    finally:
        server.stop()


def results_directory(port, password, scratch):
    """--results-dir: a finished job's file on the shared volume, named by
    its id, served from there, and removed with the job at its retention."""
    results = os.path.join(scratch, "results")
    os.makedirs(results)
    server = Server("--workers", "1", "--backend", "cpu", "--results-dir", results, "--job-retention", "2", env={
        "LAMINA_JOBS_STORE": f"postgres://lamina@127.0.0.1:{port}/lamina", "LAMINA_JOBS_STORE_PASSWORD_FILE": password})
    try:
        wait_ready(server)
        status, job, _ = submit(server, animation(color="#996633"))
        done = wait_for([server], job.get("id"), ("done",))
        path = os.path.join(results, job.get("id", "-"))
        _, _, served = server.request("GET", f"/jobs/{job.get('id')}/result")
        on_disk = open(path, "rb").read() if os.path.exists(path) else b""
        check("--results-dir: the finished file is on the shared volume, named by the job, and served from there",
              done.get("stage") == "done" and on_disk == served and served[:4] == b"RIFF", (done.get("stage"), len(on_disk), len(served)))
        deadline = time.time() + 15
        while time.time() < deadline and os.path.exists(path):
            time.sleep(0.2)
        check("and removed with the job after --job-retention", not os.path.exists(path)
              and status_of(server, job.get("id"))[0] == 404, os.listdir(results))
    finally:
        server.stop()


if __name__ == "__main__":
    if not os.access(LAMINA, os.X_OK):
        sys.exit(f"no lamina binary at {LAMINA} (set LAMINA)")
    report = sys.argv[sys.argv.index("--report") + 1] if "--report" in sys.argv else None
    main()
    if report:
        with open(report, "w") as f:
            json.dump(REPORT, f, indent=2)
    finish()
