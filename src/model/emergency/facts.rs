//! The facts a runtime hands to the emergency note with `--facts FILE` (JSON). Every key is
//! optional; the event log fills in what the facts leave out. `soft_threshold_crossed` is a
//! boolean, or a string saying where it was crossed (`"turn 41 at 750,112 tokens"`).
//!
//! The note is written at the one moment nothing else will write one, so the facts degrade per
//! field ([`Facts::lenient`]): a field of the wrong type is shown as given (a scalar) or as `not
//! available` (anything else), with a warning, and the rest of the facts still count.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What the runtime knows and hands in with `--facts FILE` (JSON). Every key is optional; the
/// event log fills in what the facts leave out.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Facts {
    pub last_assistant_text: Option<String>,
    pub handoff_skill_invoked: Option<bool>,
    pub budget: Budget,
    pub archive_dir: Option<String>,
    pub session_id: Option<String>,
    pub baseline_check: Option<BaselineCheck>,
    /// Fields of the wrong type that were scalars, by their path (`budget.turns`), as given.
    #[serde(skip)]
    pub as_given: BTreeMap<String, String>,
    /// What of `.handoff.toml` could not be used (the defaults were), from git-handoff itself.
    #[serde(skip)]
    pub config_problems: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Budget {
    pub budget_tokens: Option<u64>,
    pub max_budget_tokens: Option<u64>,
    pub soft_threshold_crossed: Option<SoftThreshold>,
    pub peak_main_context_tokens: Option<u64>,
    pub cache_hit_rate: Option<f64>,
    pub turns: Option<u64>,
    pub elapsed_seconds: Option<f64>,
}

/// Whether the soft threshold was crossed, or where (`"turn 41 at 750,112 tokens"`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    untagged,
    expecting = "soft_threshold_crossed as true, false, or a string saying where it was crossed"
)]
pub enum SoftThreshold {
    Crossed(bool),
    At(String),
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BaselineCheck {
    pub command: String,
    pub ok: bool,
}

/// The keys a facts file may hold, and what each is.
const KEYS: &str = "last_assistant_text (string), handoff_skill_invoked (boolean), budget \
                    (object), archive_dir (string), session_id (string), baseline_check \
                    ({command, ok})";

impl Facts {
    /// Reads the facts field by field: what cannot be read is a warning, never the end of the
    /// note. `origin` names the file in warnings.
    pub fn lenient(bytes: &[u8], origin: &str) -> (Facts, Vec<String>) {
        let mut facts = Facts::default();
        let mut warnings = Vec::new();
        let object = match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(object)) => object,
            Ok(other) => {
                warnings.push(format!(
                    "{origin}: the facts are {}, not a JSON object; none were used (keys: {KEYS})",
                    kind(&other)
                ));
                return (facts, warnings);
            }
            Err(err) => {
                warnings.push(format!(
                    "{origin}:{}:{}: not JSON ({err}); no facts were used",
                    err.line(),
                    err.column()
                ));
                return (facts, warnings);
            }
        };
        let mut read = Reader { facts: &mut facts, warnings: &mut warnings };
        for (key, value) in &object {
            match key.as_str() {
                "last_assistant_text" => read.field(key, value, |f, v| f.last_assistant_text = v),
                "handoff_skill_invoked" => {
                    read.field(key, value, |f, v| f.handoff_skill_invoked = v)
                }
                "archive_dir" => read.field(key, value, |f, v| f.archive_dir = v),
                "session_id" => read.field(key, value, |f, v| f.session_id = v),
                "baseline_check" => read.field(key, value, |f, v| f.baseline_check = v),
                "budget" => read.budget(value),
                other => read
                    .warnings
                    .push(format!("{origin}: unknown key `{other}` ignored (keys: {KEYS})")),
            }
        }
        (facts, warnings)
    }
}

struct Reader<'a> {
    facts: &'a mut Facts,
    warnings: &'a mut Vec<String>,
}

impl Reader<'_> {
    /// Sets one field when `value` has its type; else keeps it as given, with a warning.
    fn field<T: DeserializeOwned>(
        &mut self,
        path: &str,
        value: &Value,
        set: impl FnOnce(&mut Facts, Option<T>),
    ) {
        if value.is_null() {
            return;
        }
        match serde_json::from_value::<T>(value.clone()) {
            Ok(typed) => set(self.facts, Some(typed)),
            Err(err) => self.wrong(path, value, &err.to_string()),
        }
    }

    fn budget(&mut self, value: &Value) {
        let object: &Map<String, Value> = match value {
            Value::Null => return,
            Value::Object(object) => object,
            other => return self.wrong("budget", other, "expected an object"),
        };
        for (key, value) in object {
            let path = format!("budget.{key}");
            match key.as_str() {
                "budget_tokens" => self.field(&path, value, |f, v| f.budget.budget_tokens = v),
                "max_budget_tokens" => {
                    self.field(&path, value, |f, v| f.budget.max_budget_tokens = v)
                }
                "soft_threshold_crossed" => {
                    self.field(&path, value, |f, v| f.budget.soft_threshold_crossed = v)
                }
                "peak_main_context_tokens" => {
                    self.field(&path, value, |f, v| f.budget.peak_main_context_tokens = v)
                }
                "cache_hit_rate" => self.field(&path, value, |f, v| f.budget.cache_hit_rate = v),
                "turns" => self.field(&path, value, |f, v| f.budget.turns = v),
                "elapsed_seconds" => self.field(&path, value, |f, v| f.budget.elapsed_seconds = v),
                _ => self.warnings.push(format!("facts: unknown key `{path}` ignored")),
            }
        }
    }

    /// A field of the wrong type: a scalar is shown as given, anything else as not available.
    fn wrong(&mut self, path: &str, value: &Value, why: &str) {
        let given = match value {
            Value::String(text) => Some(text.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        };
        let shown = match &given {
            Some(text) => format!("shown as given ({text:?})"),
            None => "shown as not available".to_string(),
        };
        self.warnings.push(format!("facts: `{path}` is {} ({why}); {shown}", kind(value)));
        if let Some(text) = given {
            self.facts.as_given.insert(path.to_string(), text);
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
