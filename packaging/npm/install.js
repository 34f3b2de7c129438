// npm's postinstall for git-handoff: replaces bin/git-handoff (the Node launcher) with this
// platform's native binary, hard-linked where it can be and copied where not, through a temporary
// name and a rename, so the file on PATH is never half written. Nothing is downloaded; a platform
// without a package keeps the launcher, which says so when run.
"use strict";
const fs = require("fs");
const path = require("path");
const name = `@git-handoff/${process.platform}-${process.arch}`;
let binary;
try {
  binary = require.resolve(`${name}/bin/git-handoff`);
} catch {
  process.exit(0);
}
const target = path.join(__dirname, "bin", "git-handoff");
const temporary = `${target}.${process.pid}.tmp`;
try {
  try {
    fs.linkSync(binary, temporary);
  } catch {
    fs.copyFileSync(binary, temporary);
    fs.chmodSync(temporary, 0o755);
  }
  fs.renameSync(temporary, target);
} catch (err) {
  try { fs.unlinkSync(temporary); } catch {}
  console.warn(`git-handoff: kept the Node launcher (${err.message}); each call costs about 0.1 s more`);
}
