"""The GitHub workflows that build what users download: every action pinned to a commit, no credentials
left in checkouts, the least permissions, and zizmor (a static checker for workflows) clean at medium
and above when it is installed (the dev extra has it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

WORKFLOWS = sorted((Path(__file__).resolve().parents[1] / ".github" / "workflows").glob("*.yml"))
PINNED = re.compile(r"[\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+(\.\d+)*$")


def _steps(workflow: dict):
    for name, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield name, job, step


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_tag_in_a_comment(path):
    uses = [line.split("uses:", 1)[1].strip() for line in path.read_text().splitlines() if "uses:" in line]
    assert uses and [u for u in uses if not PINNED.fullmatch(u)] == []


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_checkouts_keep_no_credentials_and_permissions_are_per_job(path):
    workflow = yaml.safe_load(path.read_text())
    assert workflow["permissions"] == {}  # nothing by default: each job names what it needs
    for name, _job, step in _steps(workflow):
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False, name
    for name, job in workflow["jobs"].items():
        assert set(job["permissions"]) == {"contents"}, name
        uses_secrets = "secrets." in json.dumps(job)
        if job["permissions"]["contents"] == "write" or uses_secrets:  # nothing third-party runs there
            assert "environment" in job and not any(
                s.get("uses", "").startswith("actions/checkout@") for s in job["steps"]
            ), name


# next to this Python first: `make test` runs the venv's Python without the venv's bin on PATH
ZIZMOR = shutil.which("zizmor", path=str(Path(sys.executable).parent)) or shutil.which("zizmor")


@pytest.mark.skipif(ZIZMOR is None, reason="zizmor is not installed (pip install -e '.[dev]')")
def test_zizmor_finds_nothing_at_medium_or_above():
    result = subprocess.run(
        [ZIZMOR, "--offline", "--min-severity", "medium", "--format", "json", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(result.stdout) == [], result.stdout
