//! `.handoff.toml` for the commands that save work at the end (`seal`, `note`, `record`, `recall
//! --hook`, `start`): a configuration git-handoff cannot take whole never stops them. Anyone who
//! can land a commit can commit a bad one, and refusing would leave the work uncommitted, the
//! event log empty and no emergency note. So what can be read is used, each key or list entry
//! that cannot falls back to its default, and every problem is said with its file:line, on stderr
//! and in the emergency note. `validate` and `hooks status` read the file strictly and report it.

use std::path::Path;

use toml::{Table, Value};

use super::key_line::key_line;
use super::{Config, FILE_NAME, MAX_BYTES};

/// The most configurations tried while salvaging one file; each is parsed and its patterns
/// compiled, and a hook waits on it. A real file needs a few dozen.
const MAX_TRIALS: usize = 300;

impl Config {
    /// The configuration of the work tree at `top` for a command that saves work, and what of it
    /// could not be used (empty when the file is good or absent).
    pub fn load_for_saving(top: Option<&Path>) -> (Config, Vec<String>) {
        let err = match Config::load(top) {
            Ok(config) => return (config, Vec::new()),
            Err(err) => err,
        };
        let salvaged = top.and_then(|top| salvage(&top.join(FILE_NAME)));
        let (config, left_out) = match salvaged {
            Some((config, left_out)) => (config, left_out.join(", ")),
            None => (Config::default(), "the whole file".to_string()),
        };
        let problem = format!(
            "{err:#}; this command goes on without what it cannot use ({left_out}: the defaults \
             instead), and `git handoff validate` reports the file until it is mended"
        );
        (config, vec![problem])
    }
}

/// The keys of the file at `path` that parse and pass their checks, one at a time in the file's
/// order, with the names of the others (`secrets.patterns[2]`, `caps`, `typo`); `None` when
/// nothing of it can be read as TOML.
fn salvage(path: &Path) -> Option<(Config, Vec<String>)> {
    let bytes =
        crate::util::fs::read_regular_if_any(path, MAX_BYTES, "the configuration").ok()??;
    let text = String::from_utf8_lossy(&bytes);
    let table: Table = toml::from_str(&text).ok()?;
    let mut salvage = Salvage { kept: Table::new(), left_out: Vec::new(), trials: 0 };
    for (key, value) in table {
        salvage.add(&key, None, value);
    }
    let config = salvage.parsed().unwrap_or_default();
    // In the file's order (a table's keys come sorted).
    salvage.left_out.sort_by_cached_key(|(name, items)| (key_line(&text, name), *items));
    let left_out = salvage
        .left_out
        .iter()
        .map(|(name, items)| match items {
            None => format!("`{name}`"),
            Some((first, last)) if first == last => format!("`{name}[{first}]`"),
            Some((first, last)) => format!("`{name}[{first}..={last}]`"),
        })
        .collect();
    Some((config, left_out))
}

struct Salvage {
    kept: Table,
    /// A key left out, or a run of its list's entries (first and last index).
    left_out: Vec<(String, Option<(usize, usize)>)>,
    trials: usize,
}

/// List entries left out one after another before the rest of the list is left out untried: past
/// a cap (64 patterns) every further entry fails alike.
const MAX_FAILED_IN_A_ROW: usize = 4;

impl Salvage {
    /// `kept` as a configuration, if it is one.
    fn parsed(&self) -> Option<Config> {
        let text = toml::to_string(&self.kept).ok()?;
        Config::parse(&text, FILE_NAME).ok()
    }

    /// Keeps `kept` with `value` set at `key` (in table `outer`, when given) if the result is a
    /// configuration; else leaves it as it was.
    fn try_set(&mut self, outer: Option<&str>, key: &str, value: Value) -> bool {
        if self.trials >= MAX_TRIALS {
            return false;
        }
        self.trials += 1;
        let before = self.kept.clone();
        match outer {
            None => {
                self.kept.insert(key.to_string(), value);
            }
            Some(outer) => match self.kept.get_mut(outer).and_then(Value::as_table_mut) {
                Some(table) => {
                    table.insert(key.to_string(), value);
                }
                None => return false,
            },
        }
        let fits = self.parsed().is_some();
        if !fits {
            self.kept = before;
        }
        fits
    }

    /// Adds `key = value` (in table `outer`) whole if it fits; else a table key by key and a list
    /// entry by entry, naming what is left out.
    fn add(&mut self, key: &str, outer: Option<&str>, value: Value) {
        let name = outer.map_or_else(|| key.to_string(), |outer| format!("{outer}.{key}"));
        if self.try_set(outer, key, value.clone()) {
            return;
        }
        match value {
            Value::Table(inner) if outer.is_none() => {
                if !self.try_set(None, key, Value::Table(Table::new())) {
                    return self.left_out.push((name, None));
                }
                for (sub, value) in inner {
                    self.add(&sub, Some(key), value);
                }
            }
            Value::Array(items) => {
                if !self.try_set(outer, key, Value::Array(Vec::new())) {
                    return self.left_out.push((name, None));
                }
                let (mut kept, mut failed) = (Vec::new(), 0);
                for (i, item) in items.into_iter().enumerate() {
                    kept.push(item);
                    let fits = failed < MAX_FAILED_IN_A_ROW
                        && self.try_set(outer, key, Value::Array(kept.clone()));
                    if fits {
                        failed = 0;
                        continue;
                    }
                    kept.pop();
                    failed += 1;
                    match self.left_out.last_mut() {
                        Some((last, Some((_, end)))) if *last == name && *end + 1 == i => *end = i,
                        _ => self.left_out.push((name.clone(), Some((i, i)))),
                    }
                }
            }
            _ => self.left_out.push((name, None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn salvaged(text: &str) -> (Config, Vec<String>) {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("handoff-salvage-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), text).unwrap();
        let got = Config::load_for_saving(Some(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
        got
    }

    #[test]
    fn what_can_be_read_is_kept_and_the_rest_named() {
        let (config, problems) = salvaged(
            "note_dir = \"docs/notes\"\ntypo = 1\ncaps = 5\n\n[secrets]\nfiles = [\"*.key\"]\n\
             patterns = [\"CORP_[0-9]{8}\", \"(?=x)\", \"ZED_[a-z]{4}\"]\n",
        );
        assert_eq!(config.note_dir, "docs/notes");
        assert_eq!(config.caps.recall_lines, 10);
        assert_eq!(config.secrets.files, ["*.key"]);
        assert_eq!(config.secrets.patterns, ["CORP_[0-9]{8}", "ZED_[a-z]{4}"]);
        assert_eq!(problems.len(), 1);
        let problem = &problems[0];
        assert!(problem.contains(".handoff.toml:3: "), "{problem}");
        assert!(problem.contains("`typo`, `caps`, `secrets.patterns[1]`"), "{problem}");
        let many: Vec<String> = (0..100).map(|i| format!("'P{i}_[0-9]'")).collect();
        let (config, problems) = salvaged(&format!("[redact]\npatterns = [{}]\n", many.join(",")));
        assert_eq!(config.redact.patterns.len(), 64);
        assert!(problems[0].contains("(`redact.patterns[64..=99]`:"), "{problems:?}");
    }

    #[test]
    fn a_file_that_is_not_toml_or_not_text_is_the_defaults() {
        let (config, problems) = salvaged("note_dir = [\n");
        assert_eq!(config.note_dir, ".agent/handoff");
        assert!(problems[0].contains("the whole file"), "{problems:?}");
        let (config, problems) =
            salvaged("note_dir = \"a\u{fffd}\"\nnotes_ref = \"refs/notes/x\"\n");
        assert_eq!(
            (config.note_dir.as_str(), config.notes_ref.as_str()),
            (".agent/handoff", "refs/notes/x")
        );
        assert!(problems[0].contains("`note_dir`"), "{problems:?}");
    }

    #[test]
    fn a_good_file_has_no_problem() {
        let (config, problems) = salvaged("note_dir = \"n\"\n");
        assert_eq!((config.note_dir.as_str(), problems.len()), ("n", 0));
    }
}
