#!/usr/bin/env python3
"""Checks action.yml against the fields GitHub reads from a composite action's metadata, and
against the script its steps call:

  - name and description are there; no top-level key GitHub does not know;
  - every input has a description (and only the keys an input may have), every output of a
    composite action a description and a value;
  - runs.using is "composite", and every step has either run (with shell) or uses, and only
    the keys a composite step may have;
  - every ${{ inputs.X }} names a declared input, every ${{ steps.ID.* }} a step's id, and
    every input is used;
  - every INPUT_* variable the script reads is set by a step, and every script a step names
    exists and is executable.

  check_action.py ACTION_YML    (exit 0: valid; 1: each fault on its own line; 77: no PyYAML)
"""
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("PyYAML missing (Debian python3-yaml): skipped")
    sys.exit(77)

TOP_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
OUTPUT_KEYS = {"description", "value"}
STEP_KEYS = {"name", "id", "if", "run", "shell", "uses", "with", "env", "working-directory",
             "continue-on-error"}
BRANDING_COLORS = {"white", "black", "yellow", "blue", "green", "orange", "red", "purple",
                   "gray-dark"}
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def strings_in(value):
    """Every string inside a parsed YAML value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def check_top(action, faults):
    for key in ("name", "description", "runs"):
        if not isinstance(action.get(key), (str, dict)) or not action.get(key):
            faults.append(f"'{key}' is missing")
    for key in set(action) - TOP_KEYS:
        faults.append(f"unknown top-level key '{key}'")
    branding = action.get("branding", {})
    if branding and branding.get("color") not in BRANDING_COLORS:
        faults.append(f"branding color '{branding.get('color')}' is not one GitHub knows")


def check_inputs_outputs(action, faults):
    for name, spec in (action.get("inputs") or {}).items():
        if not isinstance(spec, dict) or not spec.get("description"):
            faults.append(f"input '{name}' has no description")
            continue
        for key in set(spec) - INPUT_KEYS:
            faults.append(f"input '{name}': unknown key '{key}'")
        if "default" in spec and not isinstance(spec["default"], str):
            faults.append(f"input '{name}': the default is not a string")
    for name, spec in (action.get("outputs") or {}).items():
        if not isinstance(spec, dict) or set(spec) != OUTPUT_KEYS:
            faults.append(f"output '{name}' needs exactly a description and a value")


def check_steps(action, action_dir, faults):
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        faults.append("runs.using is not 'composite'")
    steps = runs.get("steps")
    if not isinstance(steps, list) or not steps:
        faults.append("runs.steps is not a list of steps")
        return []
    for i, step in enumerate(steps):
        where = f"step {i + 1} ({step.get('name', 'unnamed')})"
        for key in set(step) - STEP_KEYS:
            faults.append(f"{where}: unknown key '{key}'")
        if ("run" in step) == ("uses" in step):
            faults.append(f"{where}: needs either run or uses")
        if "run" in step and not step.get("shell"):
            faults.append(f"{where}: a run step of a composite action needs shell")
        if "with" in step and "uses" not in step:
            faults.append(f"{where}: with belongs to a uses step")
        for script in re.findall(r"\$GITHUB_ACTION_PATH/(\S+?)[\"' ]", step.get("run", "") + " "):
            path = os.path.join(action_dir, script)
            if not os.access(path, os.X_OK):
                faults.append(f"{where}: {script} is not an executable file of the tree")
    return steps


def check_references(action, steps, faults):
    inputs = set(action.get("inputs") or {})
    ids = {step.get("id") for step in steps if step.get("id")}
    used = set()
    for text in strings_in(action):
        for expression in EXPRESSION.findall(text):
            for name in re.findall(r"\binputs\.([A-Za-z0-9_-]+)", expression):
                used.add(name)
                if name not in inputs:
                    faults.append(f"'{expression.strip()}' names no declared input")
            for step_id in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)\.", expression):
                if step_id not in ids:
                    faults.append(f"'{expression.strip()}' names no step id")
    for name in sorted(inputs - used):
        faults.append(f"input '{name}' is used by no step")


def check_script_inputs(steps, action_dir, faults):
    given = set()
    for step in steps:
        given |= set((step.get("env") or {}))
    for step in steps:
        for script in re.findall(r"\$GITHUB_ACTION_PATH/(\S+?)[\"' ]", step.get("run", "") + " "):
            path = os.path.join(action_dir, script)
            if not os.path.isfile(path):
                continue
            with open(path, encoding="utf-8") as f:
                read = set(re.findall(r"\$\{?(INPUT_[A-Z0-9_]+)", f.read()))
            for name in sorted(read - given):
                faults.append(f"{script} reads {name}, which no step sets")


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        action = yaml.safe_load(f)
    faults = []
    if not isinstance(action, dict):
        faults.append("not a mapping")
    else:
        check_top(action, faults)
        check_inputs_outputs(action, faults)
        steps = check_steps(action, os.path.dirname(os.path.abspath(path)), faults)
        check_references(action, steps, faults)
        check_script_inputs(steps, os.path.dirname(os.path.abspath(path)), faults)
    for fault in faults:
        print(f"{path}: {fault}")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
