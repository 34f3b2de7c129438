// git-handoff for opencode: records this session's tool calls and events for the next session's
// handoff (`git-handoff record`), puts the last handoff in front of the model at a session's
// start (`git-handoff recall`), and leaves the session's digest when it goes idle with no note
// (`git-handoff note --digest-only`). No dependencies; a failure never stops the agent.
// Installed by `git handoff hooks install --opencode` (installing again rewrites this file),
// removed by `git handoff hooks uninstall --opencode`.
import { spawnSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";

export const GitHandoff = async ({ directory, worktree }) => {
  const cwd = directory || worktree || process.cwd();
  const children = new Set(); // subagent sessions
  const finished = new Set(); // calls whose end is recorded
  const roles = new Map(); // message id -> role
  const lastText = new Map(); // session -> the model's last text
  const recalled = new Map(); // session -> the recall put in front of it
  const erred = new Set(); // sessions whose turn ended on an API error
  let warned = false;

  // Runs git-handoff; when it cannot be started, says so where `hooks status` and recall look.
  const run = (args, payload, timeout = 10000) => {
    const input = payload === undefined ? "" : JSON.stringify({ cwd, ...payload });
    const out = spawnSync("git-handoff", args, { cwd, input, encoding: "utf8", timeout });
    if (out.error && !warned) {
      warned = true;
      const why = `git-handoff ${args[0]}: ${out.error.code || out.error.message}`;
      console.error(`git-handoff plugin: ${why}; is git-handoff on PATH?`);
      const dir = spawnSync("git", ["rev-parse", "--absolute-git-dir"], { cwd, encoding: "utf8" });
      if (dir.status === 0) {
        const line = `${new Date().toISOString().slice(0, 19)}Z opencode plugin: ${why}\n`;
        try { appendFileSync(join(dir.stdout.trim(), "handoff-hook-failures.log"), line); } catch {}
      }
    }
    return out.status === 0 ? out.stdout : "";
  };
  const record = (payload) => run(["record", "--agent", "generic"], payload);

  // What a call was about: the command, the files it edits, or its short target.
  const about = (tool, args = {}) => {
    if (tool === "bash") return { command: String(args.command ?? "") };
    if (["write", "edit", "multiedit"].includes(tool) && args.filePath) {
      return { paths: [String(args.filePath)] };
    }
    if (tool === "patch" || tool === "apply_patch") {
      const text = String(args.patchText ?? args.patch ?? args.input ?? "");
      const heads = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;
      const paths = [...text.matchAll(heads)].map((m) => (m[1] ?? m[2]).trim());
      return { paths: [...new Set(paths)] };
    }
    const target = args.filePath ?? args.pattern ?? args.path ?? args.description ?? args.url;
    return target === undefined ? {} : { target: String(target) };
  };
  const call = (event, sessionID, callID, tool, args, more = {}) =>
    record({ event, session_id: sessionID, id: callID, tool, subagent: children.has(sessionID),
      ...about(tool, args), ...more });

  // The kind of an API error, in the words Claude Code's StopFailure uses.
  const errorKind = (error = {}) => {
    const status = Number(error.data?.statusCode ?? 0);
    if (error.name === "ProviderAuthError" || status === 401 || status === 403) {
      return "authentication_failed";
    }
    if (error.name === "MessageOutputLengthError") return "max_output_tokens";
    if (status === 429) return "rate_limit";
    if (status === 529 || status === 503) return "overloaded";
    if (status >= 500) return "server_error";
    return error.name || "unknown";
  };

  return {
    "tool.execute.before": async (input, output) => {
      call("tool_start", input.sessionID, input.callID, input.tool, output?.args);
    },
    "tool.execute.after": async (input, output) => {
      finished.add(input.callID);
      const exit = output?.metadata?.exit;
      const code = typeof exit === "number" ? { exit_code: exit, ok: exit === 0 } : { ok: true };
      call("tool", input.sessionID, input.callID, input.tool, input.args, code);
    },
    "chat.message": async (input, output) => {
      const text = (output?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text);
      if (text.length && !children.has(input.sessionID)) {
        record({ event: "prompt", session_id: input.sessionID, text: text.join("\n") });
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      const session = input?.sessionID;
      if (!session || children.has(session) || !Array.isArray(output?.system)) return;
      if (!recalled.has(session)) {
        recalled.set(session, run(["recall", "--source", "startup"]).trim());
      }
      const text = recalled.get(session);
      if (text) output.system.push(`Last handoff (git-handoff recall):\n${text}`);
    },
    event: async ({ event }) => {
      const p = event?.properties ?? {};
      const session = p.sessionID ?? p.info?.sessionID ?? p.part?.sessionID;
      switch (event?.type) {
        case "session.created":
          if (p.info?.parentID) children.add(p.info.id);
          else record({ event: "session_start", session_id: p.info?.id ?? session, text: "startup" });
          break;
        case "message.updated":
          if (p.info?.id) roles.set(p.info.id, p.info.role);
          break;
        case "message.part.updated": {
          const part = p.part ?? {};
          if (part.type === "text" && roles.get(part.messageID) === "assistant" && part.text) {
            lastText.set(part.sessionID, part.text);
          }
          // A call that threw (a failed edit, a denied permission) never reaches
          // tool.execute.after: its end is only here.
          if (part.type === "tool" && part.state?.status === "error" && !finished.has(part.callID)) {
            finished.add(part.callID);
            call("tool", part.sessionID, part.callID, part.tool, part.state?.input,
              { ok: false, error: String(part.state?.error ?? "error") });
          }
          break;
        }
        case "session.idle":
          if (children.has(session)) {
            record({ event: "subagent_stop", session_id: session, text: lastText.get(session) });
            break;
          }
          // A turn that ended on an API error is heard as that, not as a stop.
          if (!erred.delete(session)) {
            record({ event: "stop", session_id: session, text: lastText.get(session) });
          }
          run(["note", "--digest-only"], { session_id: session }, 30000);
          break;
        case "session.compacted":
          record({ event: "compact", session_id: session, text: "auto" });
          break;
        case "session.error":
          if (p.error?.name === "MessageAbortedError") break;
          erred.add(session);
          record({ event: "stop_failure", session_id: session, error: errorKind(p.error),
            text: String(p.error?.data?.message ?? p.error?.name ?? "") });
          break;
      }
    },
  };
};
