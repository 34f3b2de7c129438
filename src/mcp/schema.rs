//! Tool arguments described once: the JSON schema the model reads and the check that names the
//! argument at fault come from the same table, so they cannot disagree.

use anyhow::{Result, bail};
use serde_json::{Map, Value, json};

/// What an argument holds.
pub enum Kind {
    /// A string.
    Text,
    /// A list of strings.
    TextList,
    /// true or false.
    Flag,
    /// A whole number of at least 1.
    Count,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// An object with these arguments.
    Object(&'static [Field]),
}

/// One argument of a tool.
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Written for the model: what to put there and when.
    pub description: &'static str,
}

/// The schema of an object with `fields`: every property described, no others allowed.
pub fn object(fields: &[Field]) -> Value {
    let mut properties = Map::new();
    for field in fields {
        let mut schema = match &field.kind {
            Kind::Text => json!({"type": "string"}),
            Kind::TextList => json!({"type": "array", "items": {"type": "string"}}),
            Kind::Flag => json!({"type": "boolean"}),
            Kind::Count => json!({"type": "integer", "minimum": 1}),
            Kind::Choice(values) => json!({"type": "string", "enum": values}),
            Kind::Object(inner) => object(inner),
        };
        schema["description"] = json!(field.description);
        properties.insert(field.name.to_string(), schema);
    }
    let required: Vec<&str> = fields.iter().filter(|f| f.required).map(|f| f.name).collect();
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema["additionalProperties"] = json!(false);
    schema
}

/// Checks `value` against `fields`, naming the argument at fault (`done[1]`, `set.status`).
/// Optional arguments given as null are taken as not given, and removed.
pub fn check(fields: &[Field], value: &mut Value, path: &str) -> Result<()> {
    let Value::Object(object) = value else {
        match path {
            "" => bail!("the arguments must be a JSON object, not {}", what(value)),
            _ => bail!("argument `{path}` must be an object, not {}", what(value)),
        }
    };
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    if let Some(unknown) = object.keys().find(|key| !names.contains(&key.as_str())) {
        bail!(
            "unknown argument `{path}{unknown}`; the arguments{} are: {}",
            if path.is_empty() {
                String::new()
            } else {
                format!(" of `{}`", &path[..path.len() - 1])
            },
            names.join(", ")
        );
    }
    for field in fields {
        let name = format!("{path}{}", field.name);
        match object.get_mut(field.name) {
            None | Some(Value::Null) if field.required => {
                bail!("argument `{name}` is missing: {}", field.description)
            }
            None => {}
            Some(Value::Null) => {
                object.remove(field.name);
            }
            Some(given) => check_kind(&field.kind, given, &name)?,
        }
    }
    Ok(())
}

fn check_kind(kind: &Kind, given: &mut Value, name: &str) -> Result<()> {
    match kind {
        Kind::Text if !given.is_string() => {
            bail!("argument `{name}` must be a string, not {}", what(given))
        }
        Kind::TextList => {
            let Some(items) = given.as_array() else {
                bail!("argument `{name}` must be a list of strings, not {}", what(given));
            };
            if let Some((index, item)) = items.iter().enumerate().find(|(_, i)| !i.is_string()) {
                bail!("argument `{name}[{index}]` must be a string, not {}", what(item));
            }
        }
        Kind::Flag if !given.is_boolean() => {
            bail!("argument `{name}` must be true or false, not {}", what(given))
        }
        Kind::Count if given.as_u64().is_none_or(|n| n < 1) => {
            bail!("argument `{name}` must be a whole number of at least 1, not {}", what(given))
        }
        Kind::Choice(values) if !given.as_str().is_some_and(|s| values.contains(&s)) => {
            bail!("argument `{name}` must be one of {}, not {}", values.join(", "), what(given))
        }
        Kind::Object(fields) => check(fields, given, &format!("{name}."))?,
        _ => {}
    }
    Ok(())
}

/// What a JSON value is, for messages: `a number (3)`, `a string ("later")`.
fn what(value: &Value) -> String {
    let mut shown = value.to_string();
    if shown.chars().count() > 40 {
        shown = format!("{}…", shown.chars().take(40).collect::<String>());
    }
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(_) => format!("a boolean ({shown})"),
        Value::Number(_) => format!("a number ({shown})"),
        Value::String(_) => format!("a string ({shown})"),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INNER: &[Field] = &[
        Field { name: "id", kind: Kind::Text, required: true, description: "the id" },
        Field { name: "files", kind: Kind::TextList, required: false, description: "paths" },
    ];
    const FIELDS: &[Field] = &[
        Field { name: "done", kind: Kind::TextList, required: false, description: "done" },
        Field { name: "n", kind: Kind::Count, required: false, description: "n" },
        Field { name: "src", kind: Kind::Choice(&["a", "b"]), required: false, description: "s" },
        Field { name: "set", kind: Kind::Object(INNER), required: false, description: "set" },
    ];

    fn error(mut value: Value) -> String {
        check(FIELDS, &mut value, "").unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_argument_at_fault() {
        assert_eq!(
            error(json!({"done": ["a", 3]})),
            "argument `done[1]` must be a string, not a number (3)"
        );
        assert_eq!(
            error(json!({"done": "all of it"})),
            "argument `done` must be a list of strings, not a string (\"all of it\")"
        );
        assert_eq!(
            error(json!({"n": 0})),
            "argument `n` must be a whole number of at least 1, not a number (0)"
        );
        assert_eq!(
            error(json!({"src": "c"})),
            "argument `src` must be one of a, b, not a string (\"c\")"
        );
        assert_eq!(error(json!({"set": {}})), "argument `set.id` is missing: the id");
        assert_eq!(
            error(json!({"set": {"id": "1", "file": []}})),
            "unknown argument `set.file`; the arguments of `set` are: id, files"
        );
        assert_eq!(
            error(json!({"gaol": 1})),
            "unknown argument `gaol`; the arguments are: done, n, src, set"
        );
        assert_eq!(error(json!([1])), "the arguments must be a JSON object, not a list");
    }

    #[test]
    fn null_optionals_are_dropped_and_the_schema_lists_every_field() {
        let mut value = json!({"done": null, "set": {"id": "x", "files": null}});
        check(FIELDS, &mut value, "").unwrap();
        assert_eq!(value, json!({"set": {"id": "x"}}));
        let schema = object(FIELDS);
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["properties"]["set"]["required"], json!(["id"]));
        assert_eq!(schema["properties"]["src"]["enum"], json!(["a", "b"]));
        assert!(schema.get("required").is_none());
    }
}
