"""How the repository's Python check scripts report: one line per check
("ok    NAME" or "FAIL  NAME detail"), then "N passed, M failed", the last
line scripts/test.sh adds up.

    from checks import check, finish
    check("the answer is 42", answer == 42, answer)
    finish()  # prints the counts, exits 1 if any check failed
"""
import sys

counts = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        counts["passed"] += 1
        print(f"ok    {name}")
    else:
        counts["failed"] += 1
        print(f"FAIL  {name} {detail}")
    sys.stdout.flush()


def finish():
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    sys.exit(1 if counts["failed"] else 0)
