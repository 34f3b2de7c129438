//! Edits a JSON settings file as text, so that everything git-handoff does not add or remove keeps
//! its bytes: the user's indentation, key order, compact arrays, spacing and line endings.
//!
//! serde_json reads the file first (its errors carry the line); this module then finds the byte
//! spans of objects, arrays and members, and splices: an appended element copies the indentation
//! of its last sibling (or goes inside an empty container one unit deeper), and a removed element
//! takes with it exactly the separator an append adds. So an install followed by an uninstall gives
//! back the file byte for byte.

use serde::Serialize;
use serde_json::Value;

/// One step of a path into the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A JSON value and where it lies in the text.
#[derive(Debug)]
enum Node {
    Object { start: usize, end: usize, members: Vec<(String, usize, Node)> },
    Array { start: usize, end: usize, items: Vec<Node> },
    Scalar { start: usize, end: usize },
}

impl Node {
    fn start(&self) -> usize {
        match self {
            Node::Object { start, .. } | Node::Array { start, .. } | Node::Scalar { start, .. } => {
                *start
            }
        }
    }

    fn end(&self) -> usize {
        match self {
            Node::Object { end, .. } | Node::Array { end, .. } | Node::Scalar { end, .. } => *end,
        }
    }

    /// The spans `(start, end)` of the children, members from their key on.
    fn children(&self) -> Vec<(usize, usize)> {
        match self {
            Node::Object { members, .. } => members.iter().map(|(_, k, v)| (*k, v.end())).collect(),
            Node::Array { items, .. } => items.iter().map(|v| (v.start(), v.end())).collect(),
            Node::Scalar { .. } => Vec::new(),
        }
    }

    fn child(&self, step: Step) -> Option<&Node> {
        match (self, step) {
            (Node::Object { members, .. }, Step::Key(key)) => {
                members.iter().rev().find(|(k, _, _)| k == key).map(|(_, _, v)| v)
            }
            (Node::Array { items, .. }, Step::Index(i)) => items.get(i),
            _ => None,
        }
    }
}

/// The byte span `(start, end)` of the value at `path`, if the text holds one there.
pub fn span(text: &str, path: &[Step]) -> Option<(usize, usize)> {
    let root = parse(text)?;
    let mut node = &root;
    for step in path {
        node = node.child(*step)?;
    }
    Some((node.start(), node.end()))
}

/// Appends `value` to the array at `path`, creating the objects and the array on the way when they
/// are missing. `None` when the text is not JSON or a step on the path is of another kind.
pub fn append(text: &str, path: &[&str], value: &Value) -> Option<String> {
    let root = parse(text)?;
    let mut node = &root;
    for (i, key) in path.iter().enumerate() {
        let Some(next) = node.child(Step::Key(key)) else {
            // Build what is missing (the rest of the path) as one member of `node`.
            let mut missing = Value::Array(vec![value.clone()]);
            for key in path[i + 1..].iter().rev() {
                let mut object = serde_json::Map::new();
                object.insert((*key).to_string(), missing);
                missing = Value::Object(object);
            }
            return Some(insert_child(text, node, Some(key), &missing));
        };
        let last = i + 1 == path.len();
        match next {
            Node::Object { .. } if !last => node = next,
            Node::Array { .. } if last => node = next,
            _ => return None,
        }
    }
    Some(insert_child(text, node, None, value))
}

/// Adds the member `key: value` to the object at `path`, creating the objects on the way when
/// they are missing. `None` when the text is not JSON, a step on the path is not an object, or the
/// member is there already.
pub fn insert(text: &str, path: &[&str], key: &str, value: &Value) -> Option<String> {
    let root = parse(text)?;
    let mut node = &root;
    for (i, step) in path.iter().enumerate() {
        let Some(next) = node.child(Step::Key(step)) else {
            let mut missing = serde_json::Map::new();
            missing.insert(key.to_string(), value.clone());
            let mut missing = Value::Object(missing);
            for step in path[i + 1..].iter().rev() {
                let mut object = serde_json::Map::new();
                object.insert((*step).to_string(), missing);
                missing = Value::Object(object);
            }
            return matches!(node, Node::Object { .. })
                .then(|| insert_child(text, node, Some(step), &missing));
        };
        node = next;
    }
    if !matches!(node, Node::Object { .. }) || node.child(Step::Key(key)).is_some() {
        return None;
    }
    Some(insert_child(text, node, Some(key), value))
}

/// Removes the element or member at `path` together with the separator that joins it to its
/// siblings. `None` when there is nothing at `path`.
pub fn remove(text: &str, path: &[Step]) -> Option<String> {
    let (last, parents) = path.split_last()?;
    let root = parse(text)?;
    let mut parent = &root;
    for step in parents {
        parent = parent.child(*step)?;
    }
    let target = parent.child(*last)?;
    let spans = parent.children();
    let index = spans.iter().position(|(_, end)| *end == target.end())?;
    let (start, end) = if spans.len() == 1 {
        (parent.start() + 1, parent.end() - 1)
    } else if index > 0 {
        (spans[index - 1].1, spans[index].1)
    } else {
        (spans[0].0, spans[1].0)
    };
    Some(format!("{}{}", &text[..start], &text[end..]))
}

/// `value` (as the member `key` of an object, or an element) as the last child of `node`.
fn insert_child(text: &str, node: &Node, key: Option<&str>, value: &Value) -> String {
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let (start, end) = (node.start(), node.end());
    let spans = node.children();
    let Some(&(last_start, last_end)) = spans.last() else {
        let inner = if text.trim().contains('\n') {
            let line = line_indent(text, start);
            let prefix = format!("{line}{}", indent_unit(text));
            format!("{nl}{prefix}{}{nl}{line}", child(key, value, Some((&prefix, text))))
        } else {
            child(key, value, None)
        };
        // Whatever whitespace was inside the empty container gives way.
        return format!("{}{inner}{}", &text[..start + 1], &text[end - 1..]);
    };
    // Copy the whitespace between the last child and the separator before it (in a one-line
    // container with one child, the file's usual `, ` spacing).
    let gap_start = text[..last_start].trim_end().len();
    let mut gap = &text[gap_start..last_start];
    let rendered = if text[start..end].contains('\n') {
        let prefix = &gap[gap.rfind('\n').map_or(0, |i| i + 1)..];
        child(key, value, Some((prefix, text)))
    } else {
        if spans.len() == 1 && gap.is_empty() && text.contains(", ") {
            gap = " ";
        }
        child(key, value, None)
    };
    format!("{},{gap}{rendered}{}", &text[..last_end], &text[last_end..])
}

/// A child as text: `"key": value` or `value`, compact, or pretty with the file's indent unit and
/// every line after the first behind `prefix`.
fn child(key: Option<&str>, value: &Value, pretty: Option<(&str, &str)>) -> String {
    let value = match pretty {
        None => compact(value),
        Some((prefix, text)) => {
            let unit = indent_unit(text);
            let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
            let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
            let _ = value.serialize(&mut serializer);
            let pretty = String::from_utf8(out).unwrap_or_default();
            let lines: Vec<String> = pretty
                .lines()
                .enumerate()
                .map(|(i, line)| if i == 0 { line.to_string() } else { format!("{prefix}{line}") })
                .collect();
            lines.join(nl)
        }
    };
    match key {
        Some(key) => format!("{}: {value}", quote(key)),
        None => value,
    }
}

/// `value` on one line, spaced as people write it: `{"a": 1, "b": [1, 2]}`.
fn compact(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let members: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", quote(k), compact(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        Value::Array(items) => {
            format!("[{}]", items.iter().map(compact).collect::<Vec<_>>().join(", "))
        }
        scalar => scalar.to_string(),
    }
}

fn quote(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_else(|_| format!("\"{key}\""))
}

/// The leading whitespace of the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The file's indentation unit: the leading whitespace of its first indented line, else 2 spaces.
fn indent_unit(text: &str) -> String {
    text.lines()
        .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
        .find(|indent| !indent.is_empty())
        .map_or_else(|| "  ".to_string(), str::to_string)
}

/// Parses JSON text into spans; lenient, as serde_json has already checked the text.
fn parse(text: &str) -> Option<Node> {
    let mut parser = Parser { bytes: text.as_bytes(), pos: 0 };
    let node = parser.value()?;
    parser.skip_ws();
    (parser.pos == parser.bytes.len()).then_some(node)
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        let found = self.bytes.get(self.pos) == Some(&byte);
        if found {
            self.pos += 1;
        }
        found
    }

    fn value(&mut self) -> Option<Node> {
        self.skip_ws();
        let start = self.pos;
        match *self.bytes.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.skip_ws();
                        let key_start = self.pos;
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return None;
                        }
                        members.push((key, key_start, self.value()?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Some(Node::Object { start, end: self.pos, members })
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value()?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Some(Node::Array { start, end: self.pos, items })
            }
            b'"' => {
                self.string()?;
                Some(Node::Scalar { start, end: self.pos })
            }
            _ => {
                while self
                    .bytes
                    .get(self.pos)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b))
                {
                    self.pos += 1;
                }
                (self.pos > start).then_some(Node::Scalar { start, end: self.pos })
            }
        }
    }

    /// A string token; returns its decoded value.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        if self.bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        self.pos += 1;
        loop {
            match *self.bytes.get(self.pos)? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    break;
                }
                _ => self.pos += 1,
            }
        }
        let raw = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
        serde_json::from_str(raw).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn append_then_remove_gives_back_the_bytes() {
        let cases = [
            "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [\n            {\"hooks\": []}\n        ]\n    }\n}\n",
            "{\n\t\"a\": [1, 2]\n}",
            "{\"x\": 1, \"hooks\": {\"Stop\": []}}",
            "{}",
            "{\r\n  \"a\": 1\r\n}\r\n",
        ];
        let group = json!({"hooks": [{"type": "command", "command": "git handoff record"}]});
        for case in cases {
            let added = append(case, &["hooks", "Stop"], &group).unwrap();
            let value: Value = serde_json::from_str(&added).unwrap();
            let stop = value["hooks"]["Stop"].as_array().unwrap();
            assert_eq!(stop.last().unwrap(), &group, "{added}");
            let n = stop.len() - 1;
            let mut back =
                remove(&added, &[Step::Key("hooks"), Step::Key("Stop"), Step::Index(n)]).unwrap();
            let original: Value = serde_json::from_str(case).unwrap();
            if original.get("hooks").is_none() {
                back = remove(&back, &[Step::Key("hooks"), Step::Key("Stop")]).unwrap();
                back = remove(&back, &[Step::Key("hooks")]).unwrap();
            }
            assert_eq!(back, case, "after {added}");
        }
    }

    #[test]
    fn appended_elements_copy_their_siblings_indentation() {
        let text = "{\n    \"hooks\": {\n        \"Stop\": [\n            {\"hooks\": []}\n        ]\n    }\n}\n";
        let added = append(text, &["hooks", "Stop"], &json!({"a": 1})).unwrap();
        assert_eq!(
            added,
            "{\n    \"hooks\": {\n        \"Stop\": [\n            {\"hooks\": []},\n            {\n                \"a\": 1\n            }\n        ]\n    }\n}\n"
        );
        let added = append(text, &["hooks", "New"], &json!(2)).unwrap();
        assert!(
            added.contains("        ],\n        \"New\": [\n            2\n        ]\n    }"),
            "{added}"
        );
    }
}
