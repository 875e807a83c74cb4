"""How the repository's Python check scripts report: one line per check
("ok    NAME", "FAIL  NAME detail" or "SKIP  NAME: why"), then
"N passed, M failed[, K skipped]", the last line scripts/test.sh adds up.

    from checks import check, finish
    check("the answer is 42", answer == 42, answer)
    finish()  # prints the counts, exits 1 if any check failed
"""
import sys

counts = {"passed": 0, "failed": 0, "skipped": 0}


def check(name, condition, detail=""):
    if condition:
        counts["passed"] += 1
        print(f"ok    {name}")
    else:
        counts["failed"] += 1
        print(f"FAIL  {name} {detail}")
    sys.stdout.flush()


def skip(name, why):
    """A check that cannot run here (a missing tool): said, and counted as a skip, never a pass."""
    counts["skipped"] += 1
    print(f"SKIP  {name}: {why}")
    sys.stdout.flush()


def finish():
    skipped = f", {counts['skipped']} skipped" if counts["skipped"] else ""
    print(f"{counts['passed']} passed, {counts['failed']} failed{skipped}")
    sys.exit(1 if counts["failed"] else 0)
