//! Who commits when git-handoff commits: the caller's `GIT_AUTHOR_*`/`GIT_COMMITTER_*`, else the
//! repository's `user.*`, else a documented fallback identity, so seal and note commits work
//! without a configured identity.

use anyhow::{Context, Result, bail};
use gix::bstr::ByteSlice;

use crate::git::{self, Git};

/// The author and committer name used when git has none configured.
pub const FALLBACK_NAME: &str = "git-handoff";
/// The author and committer email used when git has none configured.
pub const FALLBACK_EMAIL: &str = "git-handoff@localhost";
/// `GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL}` settings for git's children, see [`identity_env`].
pub type IdentityEnv = Vec<(String, String)>;

/// Environment that gives git an identity when it has none: for the author and the committer
/// separately, the caller's `GIT_*_NAME/EMAIL`, then `author.*`/`committer.*`, then `user.*`,
/// then [`FALLBACK_NAME`]/[`FALLBACK_EMAIL`]. Empty when git already knows who is committing.
pub fn identity_env(git: &Git) -> Result<IdentityEnv> {
    let mut env = Vec::new();
    let mut config: Option<Vec<(String, String)>> = None;
    let var = |key: &str| std::env::var(key).ok().filter(|v| !v.trim().is_empty());
    for who in ["AUTHOR", "COMMITTER"] {
        // Git takes these before any config; with both set there is nothing to ask.
        if var(&format!("GIT_{who}_NAME")).is_some() && var(&format!("GIT_{who}_EMAIL")).is_some() {
            continue;
        }
        let mut cmd = git.command(["var", &format!("GIT_{who}_IDENT")]);
        if git::run(&mut cmd)?.status.success() {
            continue;
        }
        let config = config.get_or_insert_with(|| ident_config(git));
        let lookup = |key: String| config.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
        let lower = who.to_lowercase();
        let name = var(&format!("GIT_{who}_NAME"))
            .or_else(|| lookup(format!("{lower}.name")))
            .or_else(|| lookup("user.name".into()))
            .unwrap_or_else(|| FALLBACK_NAME.into());
        let email = var(&format!("GIT_{who}_EMAIL"))
            .or_else(|| lookup(format!("{lower}.email")))
            .or_else(|| lookup("user.email".into()))
            .or_else(|| var("EMAIL"))
            .unwrap_or_else(|| FALLBACK_EMAIL.into());
        env.push((format!("GIT_{who}_NAME"), name));
        env.push((format!("GIT_{who}_EMAIL"), email));
    }
    Ok(env)
}

/// [`identity_env`] and [`commit_idents`] with that environment, each `git var` run once when git
/// knows who commits (the usual case: two processes, not four). The identities are `None` where
/// `commit_idents` would fail.
pub fn identity_and_idents(git: &Git) -> Result<(IdentityEnv, Option<[String; 2]>)> {
    if let Ok(idents) = commit_idents(git, &[]) {
        // Both `git var`s succeeded: `identity_env` would add nothing.
        return Ok((Vec::new(), Some(idents)));
    }
    let env = identity_env(git)?;
    let idents = commit_idents(git, &env).ok();
    Ok((env, idents))
}

/// The `author` and `committer` of a commit git would make now with `identity` (from
/// [`identity_env`]), as `git var GIT_AUTHOR_IDENT` and `GIT_COMMITTER_IDENT` print them:
/// `Name <email> <seconds> <offset>`, the caller's `GIT_*_DATE` read by git's own date parser.
pub fn commit_idents(git: &Git, identity: &[(String, String)]) -> Result<[String; 2]> {
    let started = ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"].map(|var| {
        let mut cmd = git.command(["var", var]);
        cmd.envs(identity.iter().map(|(k, v)| (k, v)));
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        cmd.spawn().map(|child| (cmd, child))
    });
    // Both are waited for before either's result is judged: none is left running.
    let outputs = started.map(|started| {
        let (cmd, child) = started.context("running `git var`")?;
        let output = child.wait_with_output().context("running `git var`")?;
        Ok::<_, anyhow::Error>((cmd, output))
    });
    let [author, committer] = outputs.map(|output| {
        let (cmd, output) = output?;
        let out = git::checked(&cmd, output)?;
        let line = out.strip_suffix(b"\n").unwrap_or(&out);
        if line.is_empty() || line.contains(&b'\n') {
            bail!("{} printed {:?}, not one identity", git::describe(&cmd), out.to_str_lossy());
        }
        Ok(line.to_str().context("`git var` printed an identity that is not UTF-8")?.to_string())
    });
    Ok([author?, committer?])
}

/// The repository's `user.*`, `author.*` and `committer.*` names and emails (non-empty ones).
fn ident_config(git: &Git) -> Vec<(String, String)> {
    let pattern = r"^(user|author|committer)\.(name|email)$";
    let mut cmd = git.command(["config", "-z", "--get-regexp", pattern]);
    let Ok(out) = git::run(&mut cmd) else { return Vec::new() };
    out.stdout
        .split(|&b| b == 0)
        .filter_map(|rec| {
            let (key, value) = rec.split_once_str("\n")?;
            let value = value.to_str().ok()?.trim();
            (!value.is_empty()).then(|| (key.to_str_lossy().to_lowercase(), value.to_string()))
        })
        .collect()
}
