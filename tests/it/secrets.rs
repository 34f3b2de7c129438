//! The one rule set of secrets, judged on a corpus: every secret form is hidden by redaction and
//! held back by seal's guard, and every look-alike line of ordinary code passes both verbatim.
//! Both rates are printed (`cargo test --test it secrets:: -- --nocapture`) and must be 100%.

use git_handoff::api::{Redactor, find_token};

const PEM_BODY: &str = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQAB";

fn pem(kind: &str) -> String {
    let lines: Vec<&str> =
        PEM_BODY.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap()).collect();
    format!("-----BEGIN {kind}-----\n{}\n-----END {kind}-----", lines.join("\n"))
}

/// `(form, text, secret)`: after redaction `secret` must be gone from `text`.
pub(crate) fn secret_forms() -> Vec<(&'static str, String, String)> {
    let s = |form: &'static str, text: String, secret: &str| (form, text, secret.to_string());
    let ghp = format!("ghp_{}", &"a1B2c3D4e5".repeat(4)[..36]);
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    vec![
        s("pem rsa block", format!("key:\n{}\ndone", pem("RSA PRIVATE KEY")), &PEM_BODY[..64]),
        s("pem openssh block", pem("OPENSSH PRIVATE KEY"), &PEM_BODY[64..128]),
        s("pem pgp block", pem("PGP PRIVATE KEY BLOCK"), &PEM_BODY[..64]),
        s(
            "pem in json",
            format!("{{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n\"}}", &PEM_BODY[..128]),
            &PEM_BODY[..64],
        ),
        s("aws access key id", "aws_access_key_id = AKIAQ3EGRJ5MZ7XW4TPL".into(), "AKIAQ3EGRJ5MZ7XW4TPL"),
        s("aws secret assignment", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz12KEYab".into(), "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz12KEYab"),
        s("aws configure set", "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz12KEYab".into(), "wJalrXUtnFEMI"),
        s("github classic token", format!("git push https://{ghp}@github.com/o/r"), &ghp),
        s("github fine-grained token", format!("GH=github_pat_{}", "11ABCDEFG0abcdefghij_KLMNOPQRSTUVwxyz0123456789"), "11ABCDEFG0abcdefghij"),
        s("gitlab token", "glpat-x1Y2z3W4v5U6t7S8r9Q0".into(), "x1Y2z3W4v5U6t7S8r9Q0"),
        s("slack bot token", "xoxb-1234567890-abcdefghij-KLMNOP".into(), "1234567890-abcdefghij"),
        s("slack webhook", "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX".into(), "XXXXXXXXXXXXXXXXXXXXXXXX"),
        s("stripe live key", "stripe.api_key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'".into(), "4eC39HqLyjWDarjtT1zdp7dc"),
        s("openai project key", format!("OPENAI_API_KEY=sk-proj-{}", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"), "Ab3dEf6hIj9kLm2nOp5qRs8t"),
        s("openai legacy key", format!("client = OpenAI(api_key=\"sk-{}\")", "T3BlbkFJAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h"), "T3BlbkFJAb3dEf6hIj9kLm2n"),
        s("anthropic key", format!("x-api-key: sk-ant-api03-{}", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-AbCdEf"), "Ab3dEf6hIj9kLm2nOp5qRs8t"),
        s("google api key", "key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q".into(), "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
        s("npm token", "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8".into(), "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
        s("pypi token", format!("pypi-AgEIcHlwaS5vcmc{}", "A1b2C3d4E5".repeat(6)), "A1b2C3d4E5A1b2C3d4E5"),
        s("hugging face token", "HF=hf_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7".into(), "hf_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7"),
        s("jwt", format!("cookie session={jwt}"), "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
        s("url credentials", "git clone https://bob:pa55word@example.com/x.git".into(), "pa55word"),
        s("database url", "DATABASE_URL=postgres://app:Xy7pQ2rT@db.internal:5432/app".into(), "Xy7pQ2rT"),
        s("redis url without user", "redis-cli -u redis://:Xy7pQ2rT9@cache:6379/0".into(), "Xy7pQ2rT9"),
        s("mongodb srv url", "mongodb+srv://admin:Xy7pQ2rT@cluster0.example.net/db".into(), "Xy7pQ2rT"),
        s("basic authorization header", "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' x".into(), "dXNlcjpwYXNzd29yZA=="),
        s("bearer header", "curl -H \"Authorization: Bearer abc123def456ghi789\" https://api".into(), "abc123def456ghi789"),
        s("bearer token alone", "send it with Bearer 9f8e7d6c5b4a39281706".into(), "9f8e7d6c5b4a39281706"),
        s("api key assignment", "API_KEY=Zx81kQp0vB3nR7".into(), "Zx81kQp0vB3nR7"),
        s("exported token", "export GH_TOKEN=Zx81kQp0vB3nR7 && gh pr list".into(), "Zx81kQp0vB3nR7"),
        s("password env before command", "DB_PASSWORD=hunter2 cargo run".into(), "hunter2"),
        s("json client secret", "{\"client_secret\": \"Zx81kQp0vB3nR7\"}".into(), "Zx81kQp0vB3nR7"),
        s("yaml password", "database:\n  password: Hunter2Pass\n".into(), "Hunter2Pass"),
        s("password flag", "psql --password hunter2 db".into(), "hunter2"),
        s("token flag with equals", "gh auth login --token=Zx81kQp0vB3nR7".into(), "Zx81kQp0vB3nR7"),
        s("azure account key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zx81kQp0vB3nR7aa+bb/cc==;EndpointSuffix=core.windows.net".into(), "Zx81kQp0vB3nR7aa+bb/cc=="),
        s("azure sas signature", "https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=Zx81kQp0vB3nR7aabbcc%2Fdd%3D".into(), "Zx81kQp0vB3nR7aabbcc"),
        s("sendgrid key", "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".into(), "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc"),
        s("curl user password", "curl -u admin:Hunter2pw https://x.example.com".into(), "Hunter2pw"),
        s("mysql password", "mysql -uroot -pS3cretPw appdb".into(), "S3cretPw"),
        s("docker login password", "docker login -u me -p Hunter2pw registry.example.com".into(), "Hunter2pw"),
        s("sshpass password", "sshpass -p 'Hunter2pw' ssh deploy@host".into(), "Hunter2pw"),
        s("netrc entry", "machine api.example.com login me password Hunter2pw".into(), "Hunter2pw"),
        s("mailgun key", "MG=key-3ax6xnjp29jd6fds4gc373sgvjxteol0".into(), "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
        s("discord bot token", "MTA4NzY1NDMyMTA5ODc2NTQzMg.GhIjKl.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789".into(), "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
        s("twilio api key", "SK0123456789abcdef0123456789abcdef".into(), "SK0123456789abcdef0123456789abcdef"),
        s("telegram bot token", "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq".into(), "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq"),
        s("digitalocean token", format!("dop_v1_{}", "0a1b2c3d".repeat(8)), "0a1b2c3d0a1b2c3d"),
        s("vault token", "VAULT_TOKEN=hvs.CAESIAbCdEfGhIjKlMnOpQrStUv".into(), "hvs.CAESIAbCdEfGhIjKlMnOpQrStUv"),
        s("spaced json (Jackson)", "\"password\" : \"hunter2x\",".into(), "hunter2x"),
        s("age secret key", format!("AGE-SECRET-KEY-1{}", "QYZX".repeat(14) + "QY"), "QYZXQYZXQYZX"),
        // Issue 48's gaps, and their kin.
        s("yaml generated password", "password: aBcD3fGh1J".into(), "aBcD3fGh1J"),
        s("yaml generated api key", "api_key: kT9xLmQ2pR".into(), "kT9xLmQ2pR"),
        s("yaml quoted generated password", "password: 'aBcD3fGh1J'".into(), "aBcD3fGh1J"),
        s("pgpassword env", "PGPASSWORD=Zx81kQp0vB psql -h db -U app".into(), "Zx81kQp0vB"),
        s("mysql pwd env", "MYSQL_PWD=Hunter2pw mysql -u root".into(), "Hunter2pw"),
        s("telegram bot url", "curl https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq/sendMessage".into(), "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq"),
        s("telegram bot url, short token", "https://api.telegram.org/bot7012345678:AbCdEf1234567890GhIjKl/getMe".into(), "AbCdEf1234567890GhIjKl"),
        s("php array assignment", "$config['api_key'] = 'Zx81kQp0vB3nR7';".into(), "Zx81kQp0vB3nR7"),
        s("php define", "define('DB_PASSWORD', 'Hunter2pw');".into(), "Hunter2pw"),
        s("json escaped quote", r#"{"password": "ab\"cd3Xy9Qz"}"#.into(), "cd3Xy9Qz"),
        s("json inside a string", r#"body = "{\"password\":\"Hunter2pw\"}""#.into(), "Hunter2pw"),
        s("xml element", "<server><password>Hunter2pw</password></server>".into(), "Hunter2pw"),
        s("inline code secret", "run `API_KEY=Zx81kQp0vB3nR7 make`".into(), "Zx81kQp0vB3nR7"),
        s("python environ assignment", "os.environ['GITHUB_TOKEN'] = 'Zx81kQp0vB3nR7'".into(), "Zx81kQp0vB3nR7"),
        s("toml token", "token = \"Zx81kQp0vB3nR7\"".into(), "Zx81kQp0vB3nR7"),
        s("query string token", "GET /x?access_token=Zx81kQp0vB3nR7&page=2".into(), "Zx81kQp0vB3nR7"),
        s("ruby hash rocket", "login(:password => 'Hunter2pw')".into(), "Hunter2pw"),
        s("go struct literal", "Password: \"Hunter2pw\",".into(), "Hunter2pw"),
        s("dockerfile env", "ENV DB_PASSWORD=Hunter2pw".into(), "Hunter2pw"),
        s("dotenv quoted secret key", "SECRET_KEY=\"Zx81kQp0vB3nR7\"".into(), "Zx81kQp0vB3nR7"),
        s("kubernetes string data", "stringData:\n  token: Zx81kQp0vB3nR7\n".into(), "Zx81kQp0vB3nR7"),
        s("postgres url", "postgres://u:Xy7pQ2rTk@db.example.com/app".into(), "Xy7pQ2rTk"),
        s("passphrase", "passphrase = correct-horse-battery-9".into(), "correct-horse-battery-9"),
        s("github app token", format!("ghs_{}", &"Q1w2E3r4T5".repeat(4)[..36]), "Q1w2E3r4T5Q1w2E3r4T5"),
        s("slack user token", "xoxp-2222222222-3333333333-AbCdEfGhIjKl".into(), "3333333333-AbCdEfGhIjKl"),
        s("stripe restricted key", "rk_live_51HxYzAbCdEfGhIjKlMnOp".into(), "51HxYzAbCdEfGhIjKlMnOp"),
        // Issue 56 item 5: more vendors' forms, and where they hide.
        s("github oauth token", format!("gho_{}", &"Zq7Wx8Ec9Rv".repeat(4)[..36]), "Zq7Wx8Ec9RvZq7Wx8Ec9"),
        s("github user-to-server token", format!("ghu_{}", &"Pl0Ok9Ij8Uh".repeat(4)[..36]), "Pl0Ok9Ij8UhPl0Ok9Ij8"),
        s("github refresh token", format!("ghr_{}", &"Mn5Bv6Cx7Za".repeat(8)[..76]), "Mn5Bv6Cx7ZaMn5Bv6Cx7"),
        s("github token header", format!("curl -H 'Authorization: token {ghp}' https://api.github.com"), &ghp),
        s("gitlab runner token", "glrt-t1_Ab3dEf6hIj9kLm2nOp5q".into(), "t1_Ab3dEf6hIj9kLm2nOp5q"),
        s("aws temporary key id", "ASIAQ3EGRJ5MZ7XW4TPL".into(), "ASIAQ3EGRJ5MZ7XW4TPL"),
        s("aws session token", format!("AWS_SESSION_TOKEN={}", "IQoJb3JpZ2luX2VjEJr".repeat(5)), "IQoJb3JpZ2luX2VjEJrIQoJ"),
        s("stripe test key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc".into(), "4eC39HqLyjWDarjtT1zdp7dc"),
        s("slack app token", "xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef0123456789".into(), "abcdef0123456789abcdef0123456789"),
        s("shopify access token", "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".into(), "0a1b2c3d4e5f60718293a4b5c6d7e8f9"),
        s("square access token", "sq0atp-Ab3dEf6hIj9kLm2nOp5qRs".into(), "Ab3dEf6hIj9kLm2nOp5qRs"),
        s("postman api key", "PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01".into(), "0123456789abcdef01234567-0123"),
        s("linear api key", "lin_api_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h".into(), "Ab3dEf6hIj9kLm2nOp5qRs8t"),
        s("doppler token", "dp.st.prd.Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h".into(), "Ab3dEf6hIj9kLm2nOp5qRs8t"),
        s("terraform cloud token", "Zx81kQp0vB3nR7.atlasv1.Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2nOp5qRs8tUv1w".into(), "Ab3dEf6hIj9kLm2nOp5qRs8t"),
        s("databricks token", "dapi0123456789abcdef0123456789abcdef".into(), "dapi0123456789abcdef0123456789abcdef"),
        s("new relic key", "NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0".into(), "NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0"),
        s("sentry dsn key", "SENTRY_DSN=https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/1".into(), "0123456789abcdef0123456789abcdef"),
        s("api key header", "curl -H 'X-API-Key: Zx81kQp0vB3nR7aa' https://api".into(), "Zx81kQp0vB3nR7aa"),
        s("api key flag", "vendor-cli deploy --api-key Zx81kQp0vB3nR7aa".into(), "Zx81kQp0vB3nR7aa"),
        s("wget password", "wget --user=me --password=Hunter2pw https://x.example.com/f".into(), "Hunter2pw"),
        s("git extra header", "git -c http.extraheader=\"AUTHORIZATION: basic dXNlcjpwYXNzd29yZA==\" fetch".into(), "dXNlcjpwYXNzd29yZA=="),
        s("docker config auth", "{\"auths\": {\"ghcr.io\": {\"auth\": \"dXNlcjpIdW50ZXIycHc=\"}}}".into(), "dXNlcjpIdW50ZXIycHc="),
        s("pip index url credentials", "pip install --index-url https://me:Hunter2pw@pypi.example.com/simple x".into(), "Hunter2pw"),
        s("private key env", "PRIVATE_KEY=0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318".into(), "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"),
        s("encrypted pem block", pem("ENCRYPTED PRIVATE KEY"), &PEM_BODY[..64]),
        s("putty private key", format!("PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\n{}", &PEM_BODY[..64]), &PEM_BODY[..64]),
        s("token in a file name", format!("wrote /tmp/{ghp}.txt"), &ghp),
        s(
            "pem as prose lines in a list",
            format!("- done: rotated\n- {}", pem("EC PRIVATE KEY").replace('\n', "\n- ")),
            &PEM_BODY[64..128],
        ),
    ]
}

/// Ordinary lines that only look like credentials: both users of the rules keep them verbatim.
pub(crate) const LOOK_ALIKES: &[&str] = &[
    // Issue 56 item 5: near the new vendor rules.
    r#"{"auth": "required", "mode": "oauth"}"#,
    "SENTRY_DSN is read from https://o1.ingest.sentry.io/api/1/store/",
    "see the PuTTY-User-Key-File-3 format notes",
    "dp.st.prd is Doppler's service-token prefix",
    "export POSTMAN_KEY=PMAK-<your key here>",
    "lin_api_ keys are created in Linear's settings",
    "xapp-level tokens are for Socket Mode",
    "const token = getToken();",
    "max_token=4096",
    "use_api_key: true",
    "git checkout sk-learn-upgrade-branch-2024",
    "let tokens = lex(input);",
    "max_tokens: 1000",
    "if token == other { }",
    "the password is not set here",
    "budget_tokens: 120000",
    "fn authenticate(token: &str) -> bool {",
    "pub token: Option<String>,",
    "api_key = os.environ[\"API_KEY\"]",
    "const API_KEY = process.env.API_KEY;",
    "password = getpass.getpass()",
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com",
    "export GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "tokenizer = AutoTokenizer.from_pretrained(\"gpt2\")",
    "git clone git@github.com:org/repo.git",
    "ssh deploy@host.example.com",
    "passwordless sudo is configured",
    "password: \"\"",
    "\"password\": null",
    "primary_key=True",
    "Bearer authentication is required",
    "docker login -u me --password-stdin",
    "mysql -u root -p",
    "token=$(cat ~/.token)",
    "password=<your-password>",
    "api_key: ${API_KEY}",
    "compass: north",
    "self.password = password",
    "token: Token,",
    "headers[\"Authorization\"] = f\"Bearer {token}\"",
    "Loader rejects files starting with -----BEGIN RSA PRIVATE KEY----- when encrypted",
    "id: 123e4567-e89b-12d3-a456-426614174000",
    "a key-value store",
    "docker run -u 1000:1000 image",
    // Found by scanning ripgrep's and test262's trees: seal held back glob.rs and feature.rs.
    "            Token::RecursivePrefix => 1,",
    "                self.push_token(Token::ZeroOrMore)?;",
    "    eqnice!(\"one/pass:far\\n\", cmd.stdout());",
    "  id-token: write # for build provenance signing",
    "  function testreduce(v) { return v == 3 ? \"PASS\" : \"FAIL\"; }", // Inline code in a note keeps its backticks (issue 48).
    "`max_token=4096`",
    "`use_api_key: true`",
    "Set `max_token=4096` and `use_api_key: true` in the config.",
    "password: passwordInput",
    "token: userId",
    "PASSWORD_MIN_LENGTH=12",
    "COMPASS_HEADING=north",
    "$config['api_key'] = getenv('API_KEY');",
    "define('WP_DEBUG', true);",
    "<password>${env.DB_PASSWORD}</password>",
    "https://api.telegram.org/bot<token>/sendMessage",
    "PGPASSWORD=$DB_PASS psql -h db",
    "pwd: /home/me/project",
    "echo $(pwd)",
    "tokenizer: bert-base-uncased",
    "monkey: banana",
    "hotkey = ctrl+c",
    "let secret = vault.get(\"db\")?;",
    "password_hash = bcrypt(password)",
    "token_count: 4096",
    "private_key_path: ~/.ssh/id_ed25519",
    "the `--token` flag reads `$GH_TOKEN`",
    "if (password.length < 8) return;",
    "<token></token>",
    "cfg['token'] = token_value",
];

#[test]
fn every_secret_form_is_hidden_and_every_look_alike_kept() {
    let redactor = Redactor::default();
    let forms = secret_forms();
    let mut leaked = Vec::new();
    let mut passed_guard = Vec::new();
    for (form, text, secret) in &forms {
        let redacted = redactor.redact(text);
        if redacted.contains(secret.as_str()) || !redacted.contains("[redacted:") {
            leaked.push(format!("{form}: {redacted}"));
        }
        if find_token(text.as_bytes()).is_none() {
            passed_guard.push(*form);
        }
    }
    let mut mangled = Vec::new();
    let mut held = Vec::new();
    for text in LOOK_ALIKES {
        let redacted = redactor.redact(text);
        if redacted != *text {
            mangled.push(format!("{text:?} -> {redacted:?}"));
        }
        if let Some(kind) = find_token(text.as_bytes()) {
            held.push(format!("{text:?} ({kind})"));
        }
    }
    let rate = |bad: usize, all: usize| 100.0 * (all - bad) as f64 / all as f64;
    println!(
        "secret forms: {} of {} redacted ({:.1}%), {} of {} held by the seal guard ({:.1}%)",
        forms.len() - leaked.len(),
        forms.len(),
        rate(leaked.len(), forms.len()),
        forms.len() - passed_guard.len(),
        forms.len(),
        rate(passed_guard.len(), forms.len()),
    );
    println!(
        "look-alikes: {} of {} kept verbatim by redaction ({:.1}%), {} of {} passed by the guard ({:.1}%)",
        LOOK_ALIKES.len() - mangled.len(),
        LOOK_ALIKES.len(),
        rate(mangled.len(), LOOK_ALIKES.len()),
        LOOK_ALIKES.len() - held.len(),
        LOOK_ALIKES.len(),
        rate(held.len(), LOOK_ALIKES.len()),
    );
    assert!(forms.len() >= 60 && LOOK_ALIKES.len() >= 40);
    assert!(leaked.is_empty(), "secrets that leaked through redaction:\n{}", leaked.join("\n"));
    assert!(passed_guard.is_empty(), "secrets the seal guard lets through: {passed_guard:?}");
    assert!(mangled.is_empty(), "look-alikes redaction changed:\n{}", mangled.join("\n"));
    assert!(held.is_empty(), "look-alikes the seal guard holds back:\n{}", held.join("\n"));
}

#[test]
fn a_pem_header_in_prose_never_eats_the_note() {
    let note = "# Handoff note: issue #7\n\n## Summary\n\n\
        - Loader rejects files starting with -----BEGIN RSA PRIVATE KEY----- when encrypted\n\n\
        ## Remaining work\n\n- -----BEGIN OPENSSH PRIVATE KEY-----\n\n## Evidence\n\n- tests ran\n";
    assert_eq!(Redactor::default().redact(note), note);
    // A real block in the same note goes, and only the block.
    let with_key = format!("{note}\n{}\n\nafter\n", pem("RSA PRIVATE KEY"));
    let redacted = Redactor::default().redact(&with_key).into_owned();
    assert_eq!(redacted, format!("{note}\n[redacted:private-key]\n\nafter\n"));
}

#[test]
fn control_characters_become_visible_replacements() {
    let redacted = Redactor::default().redact("echo a\u{0}b\u{7}c\u{1b}[0m\td\r\n").into_owned();
    assert_eq!(redacted, "echo a\u{FFFD}b\u{FFFD}c\u{FFFD}[0m\td\r\n");
}
