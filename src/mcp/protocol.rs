//! The JSON-RPC envelope and the protocol's lifecycle: which revision a request speaks, the
//! `initialize` handshake, `server/discover`, and the shape every result takes in that revision.
//!
//! A request whose params carry `_meta["io.modelcontextprotocol/protocolVersion"]` speaks the
//! per-request envelope of 2026-07-28: it must name a revision served here and declare its client
//! capabilities, and its results carry `resultType` (and cache hints where the revision asks for
//! them). Any other request is of the handshake era, before or after `initialize`: the server is
//! stateless, so it serves them alike.

use serde_json::{Map, Value, json};

use crate::model::redact::{Quoted, Redactor};

use super::rpc_error::{
    INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use super::{calls, tools};

/// Revisions reached through the `initialize` handshake, oldest first.
const HANDSHAKE_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
/// Revisions that carry the lifecycle in each request's `_meta`, oldest first.
const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// What the model is told about the server as a whole.
const INSTRUCTIONS: &str = "git-handoff keeps this repository's handoffs next to git state. \
When told a token, turn, time or cost limit is near, or asked for a handoff, call handoff_note \
once with your summary: it is checked against the event log of what you really did, tagged where \
the log cannot support it, and committed. handoff_recall gives the last handoff back; \
handoff_snapshot the repository state; handoff_progress keeps a plan that survives interruption.";

/// Which lifecycle a request belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Era {
    Handshake,
    Modern,
}

/// The answer to one line, or `None` when it needs none (a notification, a response).
pub fn handle(line: &[u8]) -> Option<Value> {
    let message: Value = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(err) => return Some(error(Value::Null, RpcError::new(PARSE_ERROR, parse_error(&err)))),
    };
    let Value::Object(message) = message else {
        let why = "a message is one JSON-RPC object on one line (batches are not supported)";
        return Some(error(Value::Null, RpcError::new(INVALID_REQUEST, why)));
    };
    // A message without a method is a response; the server sends no requests to answer.
    let method = message.get("method")?;
    // Without an id it is a notification (initialized, cancelled ...): nothing to answer, and a
    // call runs to its end before the next line is read, so there is nothing to cancel either.
    let id = message.get("id")?.clone();
    if !(id.is_string() || id.is_number()) {
        let why = "the request id must be a string or a number";
        return Some(error(Value::Null, RpcError::new(INVALID_REQUEST, why)));
    }
    let Some(method) = method.as_str() else {
        return Some(error(id, RpcError::new(INVALID_REQUEST, "the method must be a string")));
    };
    let params = match message.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(_) => {
            return Some(error(id, RpcError::new(INVALID_PARAMS, "params must be an object")));
        }
    };
    // One redaction pass over the final answer (a tool's text and JSON, an error quoting the
    // arguments it refuses); the id is echoed as sent, the client matches answers by it.
    let redactor = if method == "tools/call" { redactor() } else { Redactor::default() };
    let mut sources = Vec::new();
    strings_in(&Value::Object(params.clone()), &mut sources);
    let sources = Quoted::of(sources.iter().map(String::as_str));
    Some(match answer(method, &params) {
        Ok(mut result) => {
            redact_json(&redactor, &mut result, &sources);
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        }
        Err(mut err) => {
            err.message = redactor.redact_quoted(&err.message, &sources);
            if let Some(data) = &mut err.data {
                redact_json(&redactor, data, &sources);
            }
            error(id, err)
        }
    })
}

/// The redactor of the repository the server runs in (its configured patterns too), or the
/// built-in rules alone when there is none or its configuration does not load.
fn redactor() -> Redactor {
    let opened = crate::ops::open::open(crate::ops::open::Configuration::Saving).ok();
    opened.and_then(|opened| Redactor::new(&opened.config).ok()).unwrap_or_default()
}

/// Every string in `value`: what an error message may quote.
fn strings_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}

/// Redacts every string in `value`, in place (object keys are the server's own), the secrets
/// of `sources` (the request's strings) however a message quoted them.
fn redact_json(redactor: &Redactor, value: &mut Value, sources: &Quoted) {
    match value {
        Value::String(text) => {
            let clean = redactor.redact_quoted(text, sources);
            if clean != *text {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_json(redactor, v, sources)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_json(redactor, v, sources)),
        _ => {}
    }
}

/// The result of one request, shaped for the revision it speaks.
fn answer(method: &str, params: &Map<String, Value>) -> Result<Value, RpcError> {
    let era = era(method, params)?;
    let mut result = match method {
        "initialize" => initialize(params),
        "server/discover" => discover(),
        "ping" => json!({}),
        "tools/list" => json!({"tools": tools::list()}),
        "tools/call" => calls::call(params)?,
        _ => {
            return Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("method not found: {method} (git-handoff serves tools only)"),
            ));
        }
    };
    if era == Era::Modern
        && let Some(result) = result.as_object_mut()
    {
        result.insert("resultType".into(), json!("complete"));
        // Lists and discovery are cacheable in this revision: say so, and for no time at all,
        // since the binary may be replaced under a long-lived client.
        if matches!(method, "tools/list" | "server/discover") {
            result.insert("ttlMs".into(), json!(0));
            result.insert("cacheScope".into(), json!("private"));
        }
    }
    Ok(result)
}

/// The request's lifecycle, checking the envelope of a 2026-07-28 request.
fn era(method: &str, params: &Map<String, Value>) -> Result<Era, RpcError> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let version = meta.and_then(|meta| meta.get(META_PROTOCOL_VERSION));
    if method == "initialize" || (version.is_none() && method != "server/discover") {
        return Ok(Era::Handshake);
    }
    let mut missing = Vec::new();
    let version = version.and_then(Value::as_str);
    if version.is_none() {
        missing.push(META_PROTOCOL_VERSION);
    }
    if !meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES)).is_some_and(Value::is_object) {
        missing.push(META_CLIENT_CAPABILITIES);
    }
    if !missing.is_empty() {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!(
                "request _meta is missing or has malformed required fields: {}",
                missing.join(", ")
            ),
        ));
    }
    match version {
        Some(version) if MODERN_VERSIONS.contains(&version) => Ok(Era::Modern),
        other => Err(RpcError {
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: format!(
                "unsupported protocol version {:?}; supported: {}",
                other.unwrap_or_default(),
                supported().join(", ")
            ),
            data: Some(json!({"supported": supported(), "requested": other.unwrap_or_default()})),
        }),
    }
}

/// Every revision served, oldest first.
fn supported() -> Vec<&'static str> {
    HANDSHAKE_VERSIONS.iter().chain(MODERN_VERSIONS).copied().collect()
}

/// The handshake: the client's revision when it is one with a handshake that is served here,
/// else the newest such revision (the client then decides whether to go on).
fn initialize(params: &Map<String, Value>) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    let version = match requested {
        Some(version) if HANDSHAKE_VERSIONS.contains(&version) => version,
        _ => HANDSHAKE_VERSIONS[HANDSHAKE_VERSIONS.len() - 1],
    };
    json!({
        "protocolVersion": version,
        "capabilities": capabilities(),
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
    })
}

/// `server/discover`: the revisions, capabilities and identity, for a client choosing how to talk.
fn discover() -> Value {
    json!({
        "supportedVersions": supported(),
        "capabilities": capabilities(),
        "instructions": INSTRUCTIONS,
        "_meta": {META_SERVER_INFO: server_info()},
    })
}

fn capabilities() -> Value {
    json!({"tools": {"listChanged": false}})
}

fn server_info() -> Value {
    json!({"name": "git-handoff", "title": "git-handoff", "version": env!("CARGO_PKG_VERSION")})
}

/// The error answer to request `id`.
pub fn error(id: Value, err: RpcError) -> Value {
    let mut body = json!({"code": err.code, "message": err.message});
    if let Some(data) = err.data {
        body["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": body})
}

/// The answer to a line longer than the server reads.
pub fn too_long(max: usize) -> Value {
    let why = format!("the message is over {} MiB; send one JSON-RPC message a line", max >> 20);
    error(Value::Null, RpcError::new(INVALID_REQUEST, why))
}

fn parse_error(err: &serde_json::Error) -> String {
    format!("not JSON ({err}); send one JSON-RPC message a line")
}
