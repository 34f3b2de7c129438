#!/usr/bin/env node
// git-handoff's npm entry point. `npm install` runs install.js, which puts the native binary of
// this platform's package (@git-handoff/<os>-<cpu>) in this file's place, so the command on PATH
// is the binary itself and the agents' hooks pay nothing for npm. This launcher only runs where
// that could not happen (installed with --ignore-scripts): it starts the same binary, about
// 0.1 s slower per call.
"use strict";
const { spawnSync } = require("child_process");
const name = `@git-handoff/${process.platform}-${process.arch}`;
let binary;
try {
  binary = require.resolve(`${name}/bin/git-handoff`);
} catch {
  console.error(`git-handoff: no binary for ${process.platform}-${process.arch}: ${name} is not installed; reinstall git-handoff without --omit=optional, or build it from source (cargo install)`);
  process.exit(2);
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`git-handoff: could not start ${binary}: ${run.error.message}`);
  process.exit(2);
}
process.exit(run.status ?? 128 + (run.signal ? require("os").constants.signals[run.signal] : 1));
