#!/usr/bin/env python3
"""Every ```yaml block of a Markdown file parses as YAML and has a workflow's shape: a whole
workflow (on, jobs: each job with runs-on and steps) or a fragment of a job's steps (each
step a mapping with run or uses). A flow mapping such as `with: { key: ${{ x }} }` does not
parse (the `{` of the expression is a flow indicator), so such a block fails here as it would
on GitHub.

  check_recipes.py FILE.md...   (exit 0: all valid; 1: each fault named; 77: no PyYAML)
"""
import re
import sys
import textwrap

try:
    import yaml
except ImportError:
    print("PyYAML missing (Debian python3-yaml): skipped")
    sys.exit(77)

BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.S | re.M)


def step_faults(steps, where):
    if not isinstance(steps, list) or not steps:
        return [f"{where}: steps is not a list"]
    return [f"{where}: step {i + 1} has neither run nor uses"
            for i, step in enumerate(steps)
            if not isinstance(step, dict) or ("run" in step) == ("uses" in step)]


def block_faults(text, where):
    try:
        document = yaml.safe_load(textwrap.dedent(text))
    except yaml.YAMLError as error:
        return [f"{where}: not YAML: {' '.join(str(error).split())}"]
    if isinstance(document, list):
        return step_faults(document, where)
    if not isinstance(document, dict) or "jobs" not in document:
        return [f"{where}: neither a workflow (jobs) nor a list of steps"]
    faults = []
    # PyYAML reads the key `on` as the boolean true (YAML 1.1); GitHub reads it as "on".
    if "on" not in document and True not in document:
        faults.append(f"{where}: a workflow without 'on'")
    for name, job in document["jobs"].items():
        if "runs-on" not in job:
            faults.append(f"{where}: job '{name}' has no runs-on")
        faults += step_faults(job.get("steps"), f"{where}: job '{name}'")
    return faults


def main():
    faults = []
    blocks = 0
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for match in BLOCK.finditer(text):
            blocks += 1
            line = text.count("\n", 0, match.start()) + 1
            faults += block_faults(match.group(1), f"{path}:{line}")
    for fault in faults:
        print(fault)
    print(f"{blocks} YAML block(s), {len(faults)} fault(s)")
    sys.exit(1 if faults or not blocks else 0)


if __name__ == "__main__":
    main()
