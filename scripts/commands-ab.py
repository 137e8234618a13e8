#!/usr/bin/env python3
"""Whole-process times of a few single commands through two ariasnap binaries, interleaved.

    python3 scripts/commands-ab.py --before OLD_BIN --after NEW_BIN [--runs 10]

Each binary gets a session of its own (its own ARIASNAP_HOME) on pages of fixtures/ served
here on 127.0.0.1; every case runs --runs times per binary, the two binaries taking turns
(which one goes first alternates). Prints, per case and binary, the median of the whole
process (spawn to exit) and of the step's own `ms` in the reply. The cases:

- an `eval` that changes the DOM (renames a button), and one that only reads the page;
- a `click` on a ref the page never issued (refused before any input);
- a `set` of an ARIA combobox's option (the pickers fixture's "Seat class").
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")

CASES = [
    ("eval that changes the DOM", "html/actions/stale.html", None,
     ["eval", "(document.getElementById('b').textContent = 'B' + Math.random(), 1)"]),
    ("eval that reads", "html/actions/stale.html", None, ["eval", "document.title"]),
    ("click on an unknown ref", "html/actions/stale.html", None, ["click", "s1e999"]),
    ("set a combobox option", "html/widgets/pickers.html", 'combobox "Seat class"',
     ["set", "{ref}", "{value}"]),
]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve():
    handler = functools.partial(Quiet, directory=FIXTURES)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    bins = {"before": os.path.abspath(a.before), "after": os.path.abspath(a.after)}
    homes = {k: tempfile.mkdtemp(prefix="commands-ab-") for k in bins}
    srv, base = serve()

    def run(k, args):
        env = dict(os.environ, ARIASNAP_HOME=homes[k])
        t = time.perf_counter()
        r = subprocess.run([bins[k], "--session", "ab", *args], capture_output=True, text=True,
                           env=env)
        return (time.perf_counter() - t) * 1000, r

    try:
        print("| case | binary | whole process, median ms | step, median ms |")
        print("| --- | --- | ---: | ---: |")
        for name, page, needle, cmd in CASES:
            refs = {}
            for k in bins:
                run(k, ["goto", base + page])
                if needle:
                    snap = run(k, ["snapshot"])[1].stdout
                    line = next(l for l in snap.splitlines() if needle in l)
                    refs[k] = line.split("[ref=")[1].split("]")[0]
            got = {k: [] for k in bins}
            for i in range(a.runs):
                for k in (["before", "after"] if i % 2 == 0 else ["after", "before"]):
                    args = [x.format(ref=refs.get(k, ""), value=("business", "economy")[i % 2])
                            for x in cmd]
                    ms, r = run(k, args)
                    try:
                        step = json.loads(r.stdout)["steps"][0]["ms"]
                    except (ValueError, KeyError, IndexError):
                        step = None
                    got[k].append((ms, step))
            for k in bins:
                whole = statistics.median(m for m, _ in got[k])
                steps = [s for _, s in got[k] if s is not None]
                step = f"{statistics.median(steps):.1f}" if steps else "-"
                print(f"| {name} | {k} | {whole:.1f} | {step} |")
    finally:
        for k in bins:
            run(k, ["session", "close"])
        srv.shutdown()
        time.sleep(1)  # the closed sessions' browsers end behind `session close`
        for h in homes.values():
            shutil.rmtree(h, ignore_errors=True)


if __name__ == "__main__":
    main()
