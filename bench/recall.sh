#!/usr/bin/env bash
# recall on a repository with 10,000 commits and 1,000 records, against
# `git notes --ref=handoff show HEAD`.
source "$(dirname "$0")/lib.sh"
build_release

source "$(dirname "$0")/recall_repo.sh"
recall_repo
cd "$repo"
header "recall ($COMMITS commits, $RECORDS records)"
side_by_side "git handoff recall vs git notes show HEAD" \
  "git handoff recall --source resume" \
  "git notes --ref=handoff show HEAD"
# The installed SessionStart hooks run the binary itself (`git-handoff recall --hook ...`).
side_by_side "recall (binary, as hooks run it) vs git notes" \
  "$HANDOFF recall --source resume" \
  "git notes --ref=handoff show HEAD"
