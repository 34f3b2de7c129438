//! The rule table of [`super`]: one entry a form of secret, each with the literals (lower case)
//! any of its matches holds, the groups that hold the secret, and the check a match must pass.

use super::rule::{Check, Rule};

pub(super) static RULES: [Rule; 53] = [
    Rule::new("url-credentials", &["://"], r"\b[A-Za-z][A-Za-z0-9+.-]*://([^\s/@:]*:([^\s/@]+))@")
        .secret(&[1], Check::ValueOf(2)),
    Rule::new("authorization", &["authorization"],
        r#"(?i)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*("[^"\r\n]*"|'[^'\r\n]*'|[^\r\n"']+)"#)
        .secret(&[1], Check::Header),
    Rule::new("bearer-token", &["bearer"], r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/=-]*[0-9][A-Za-z0-9._~+/=-]*)")
        .secret(&[1], Check::Bearer),
    // Provider tokens.
    Rule::new("aws-access-key", &["akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "apka"],
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b"),
    Rule::new("aws-secret-key", &["aws"],
        r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b"#).secret(&[1], Check::Always),
    Rule::new("aws-secret-key", &["aws"],
        r#"(?i)\baws\s+configure\s+set\s+\S*(?:secret|token|key)\S*[ \t]+(?:"([^"\r\n]*)"|'([^'\r\n]*)'|(\S+))"#)
        .secret(&[1, 2, 3], Check::Value),
    Rule::new("github-token", &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b"),
    Rule::new("github-token", &["github_pat_"], r"\bgithub_pat_[A-Za-z0-9_]{22,255}\b"),
    Rule::new("gitlab-token", &["gl"], r"\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent|soat)-[A-Za-z0-9_\-]{20,}"),
    Rule::new("slack-token", &["xox"], r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
    Rule::new("slack-token", &["xapp-"], r"\bxapp-\d-[A-Za-z0-9-]{10,}"),
    Rule::new("slack-webhook", &["hooks.slack.com"], r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}"),
    Rule::new("stripe-key", &["_live_", "_test_"], r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b"),
    Rule::new("stripe-key", &["whsec_"], r"\bwhsec_[A-Za-z0-9]{24,}\b"),
    Rule::new("api-key", &["sk-"], r"\bsk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|admin-|or-v1-)[A-Za-z0-9_\-]{20,}"),
    Rule::new("api-key", &["sk-"], r"\bsk-[A-Za-z0-9_\-]{20,}").secret(&[], Check::Mixed),
    Rule::new("google-api-key", &["aiza"], r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    Rule::new("npm-token", &["npm_"], r"\bnpm_[A-Za-z0-9]{36}\b"),
    Rule::new("pypi-token", &["pypi-"], r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
    Rule::new("huggingface-token", &["hf_"], r"\bhf_[A-Za-z0-9]{34,}\b"),
    Rule::new("jwt", &["eyj"], r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    Rule::new("sendgrid-key", &["sg."], r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    Rule::new("mailgun-key", &["key-"], r"\bkey-[0-9a-z]{32}\b"),
    Rule::new("discord-token", &["."], r"\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b"),
    Rule::new("discord-webhook", &["discord"], r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{30,}"),
    Rule::new("twilio-key", &["sk"], r"\bSK[0-9a-f]{32}\b"),
    Rule::new("telegram-token", &[":aa"], r"(?:\bbot|\b)(\d{8,10}:AA[A-Za-z0-9_-]{33})\b").secret(&[1], Check::Always),
    Rule::new("telegram-token", &["telegram.org"], r"(?i)\bapi\.telegram\.org/(?:file/)?bot(\d+:[A-Za-z0-9_-]{10,})").secret(&[1], Check::Always),
    Rule::new("digitalocean-token", &["_v1_"], r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    Rule::new("shopify-token", &["shp"], r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    Rule::new("vault-token", &["hvs.", "hvb."], r"\bhv[sb]\.[A-Za-z0-9_-]{24,}"),
    Rule::new("databricks-token", &["dapi"], r"\bdapi[a-f0-9]{32}\b"),
    Rule::new("square-token", &["sq0"], r"\bsq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,}"),
    Rule::new("postman-key", &["pmak-"], r"\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}\b"),
    Rule::new("linear-key", &["lin_"], r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b"),
    Rule::new("doppler-token", &["dp."],
        r"\bdp\.(?:st|ct|sa|scim|audit|pt)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,44}\b"),
    Rule::new("terraform-token", &[".atlasv1."], r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    Rule::new("newrelic-key", &["nrak-", "nrii-", "nraa-", "nrjs-"], r"\bNR(?:AK|II|AA|JS)-[A-Z0-9]{27}\b"),
    Rule::new("sentry-dsn", &["sentry"], r"(?i)\bhttps?://([0-9a-f]{32})(?::[0-9a-f]{32})?@[A-Za-z0-9.-]*sentry")
        .secret(&[1], Check::Always),
    // Docker's config.json: `"auth": "<base64 of user:password>"`.
    Rule::new("docker-auth", &["auth"], r#""auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})""#)
        .secret(&[1], Check::Always),
    // A PuTTY key file: its private lines follow `Private-Lines: N`.
    Rule::new("putty-key", &["putty-user-key-file"],
        r"(?s)PuTTY-User-Key-File-\d:.*?Private-Lines:[ \t]*\d+\r?\n((?:[A-Za-z0-9+/=]+(?:\r?\n|$))+)")
        .secret(&[1], Check::Always),
    Rule::new("age-secret-key", &["age-secret-key-"], r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
    Rule::new("azure-key", &["accountkey", "sharedaccesskey"], r"(?i)\b(?:AccountKey|SharedAccessKey)=([^;\s\x22']+)")
        .secret(&[1], Check::Value),
    Rule::new("azure-sas", &["sig="], r"[?&]sig=([A-Za-z0-9%+/=_-]{16,})").secret(&[1], Check::Always),
    // Passwords on command lines.
    Rule::new("password", &["curl", "wget"],
        r#"\b(?:curl|wget)\b[^\n|;&]*?[ \t](?:-u|--user)(?:[ \t]+|=)?["']?[^\s:"']+:([^\s"']+)"#)
        .secret(&[1], Check::Value),
    Rule::new("password", &["mysql", "mariadb"],
        r#"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s"']\S*))"#)
        .secret(&[1, 2, 3], Check::Value),
    Rule::new("password", &["docker"],
        r#"\bdocker\s+login\b[^\n|;&]*?[ \t](?:-p|--password)(?:[ \t]+|=)(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"']\S*))"#)
        .secret(&[1, 2, 3], Check::Value),
    Rule::new("password", &["sshpass"],
        r#"\bsshpass\b[^\n|;&]*?[ \t]-p[ \t]*(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"']\S*))"#)
        .secret(&[1, 2, 3], Check::Value),
    Rule::new("password", &["machine", "default"],
        r"(?:\bmachine[ \t]+\S+|\bdefault\b)(?:\s+(?:login|account|port|protocol)[ \t]+\S+)*\s+password[ \t]+(\S+)")
        .secret(&[1], Check::Value),
    // `password=x`, `"api_key": "x"`, `secret: x`, `DB_PASSWORD=x`, `'token' => 'x'`,
    // `$config['api_key'] = 'x'`, `\"password\":\"x\"` (JSON inside a string), `"a\"b"`.
    Rule::new("credentials", &["pass", "pwd", "secret", "token", "key", "credential"],
        r#"(?i)\b[A-Za-z0-9_.-]*?(password|passwd|passphrase|pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key(?:[_-]?base)?|client[_-]?secret|signing[_-]?key|encryption[_-]?key|master[_-]?key|credentials?)\\?["']?\]?[ \t]*(?:=>|:=|[:=])[ \t]*(?:\\"((?:[^"\\\r\n]|\\[^"\r\n])*)\\"|"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'|([^\s"'=,;&|)}\]`][^\s"',;&|)}\]`]*))"#)
        .secret(&[2, 3, 4, 5], Check::Value).word(1),
    Rule::new("credentials", &["pass", "secret", "token", "key"],
        r#"(?i)--(password|passwd|pass|secret|token|auth-token|api[_-]?key|access[_-]?key|client[_-]?secret)[ \t]+(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"'`-][^\s"'`]*))"#)
        .secret(&[2, 3, 4], Check::Value).word(1),
    // PHP's `define('DB_PASSWORD', 'x');` (WordPress keys and salts too).
    Rule::new("credentials", &["define"],
        r#"(?i)\bdefine\(\s*["'][A-Za-z0-9_]*?(password|passwd|secret|token|api_?key|key|salt)["']\s*,\s*(?:"([^"\r\n]*)"|'([^'\r\n]*)')"#)
        .secret(&[2, 3], Check::Value).word(1),
    // XML elements: `<password>x</password>` (Maven's settings.xml, .NET configs).
    Rule::new("credentials", &["pass", "secret", "token", "key"],
        r#"(?i)<((?:[A-Za-z0-9_.-]*?[_.-])?(?:password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|client[_-]?secret))>([^<\r\n]+)</"#)
        .secret(&[2], Check::Value).word(1),
];
