//! A claim cut into words and clauses: lower-cased words (letters, digits and `_`), check marks
//! read as words (`✅` is `✅`, `❌` `✓` `✗` likewise), contractions spelled out (`don't` is
//! `do not`), and paths, file names and addresses left out (`src/pass.rs` says nothing about
//! passing). Every word knows its clause: a hard clause ends at punctuation (`,` `;` `:` `.` `(`
//! a dash) or `but`; a soft clause also ends at `and`, `or`, `so`, `when`, `because` ...

/// One word of a claim and the clauses it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// The hard clause: punctuation and `but` end it.
    pub hard: usize,
    /// The soft clause: conjunctions end it too.
    pub soft: usize,
}

/// Words that end a hard clause (and are not kept).
const HARD_BREAKS: [&str; 5] = ["but", "however", "though", "although", "whereas"];

/// Words that end a soft clause (and are kept).
const SOFT_BREAKS: [&str; 12] = [
    "and", "or", "so", "then", "while", "because", "since", "after", "before", "when", "where",
    "which",
];

/// The words of `text`, in order, and whether it is a question.
pub fn words(text: &str) -> (Vec<Word>, bool) {
    let text = text.trim();
    let question = text.ends_with('?');
    let mut out = Vec::new();
    let (mut hard, mut soft) = (0, 0);
    let lower = spell_out(&text.to_lowercase());
    for chunk in lower.split_whitespace() {
        if is_path(chunk) {
            // A path says nothing, but a sentence may end with it.
            if chunk.ends_with(['.', ',', ';', ':']) {
                hard += 1;
                soft += 1;
            }
            continue;
        }
        if chunk == "-" || chunk == "--" || chunk == "—" || chunk == "–" {
            hard += 1;
            soft += 1;
            continue;
        }
        let mut word = String::new();
        let mut push = |word: &mut String, hard: &mut usize, soft: &mut usize| {
            if word.is_empty() {
                return;
            }
            let text = std::mem::take(word);
            if HARD_BREAKS.contains(&text.as_str()) {
                *hard += 1;
                *soft += 1;
                return;
            }
            if SOFT_BREAKS.contains(&text.as_str()) {
                *soft += 1;
            }
            out.push(Word { text, hard: *hard, soft: *soft });
        };
        for c in chunk.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            push(&mut word, &mut hard, &mut soft);
            let mark = match c {
                '✅' | '✔' | '✓' | '☑' | '🟢' | '👍' => Some("✅"),
                '❌' | '✗' | '✘' | '🔴' | '⛔' | '🚫' => Some("❌"),
                _ => None,
            };
            if let Some(mark) = mark {
                word.push_str(mark);
                push(&mut word, &mut hard, &mut soft);
            } else if matches!(c, ',' | ';' | ':' | '.' | '!' | '?' | '(' | ')' | '[' | ']' | '—')
                || matches!(c, '–' | '|' | '→' | '=' | '·' | '•')
            {
                hard += 1;
                soft += 1;
            }
        }
        push(&mut word, &mut hard, &mut soft);
    }
    (out, question)
}

/// Contractions spelled out: `don't` -> `do not`, `can't` -> `can not`, `won't` -> `will not`,
/// `cannot` -> `can not`; typographic apostrophes read as `'`.
fn spell_out(text: &str) -> String {
    let text = text.replace(['\u{2019}', '\u{2018}'], "'");
    let text = text.replace("can't", "can not").replace("won't", "will not");
    let text = text.replace("cannot", "can not").replace("n't", " not");
    // `it's`, `that's`: the `s` is `is`.
    text.replace("'s ", " is ").replace("'re ", " are ")
}

/// True for a chunk that names a file or an address (`src/pass.rs`, `./x`, `https://...`,
/// `Cargo.toml`), not a word: it has a `/` with a dot after it, starts like a path, or ends in a
/// file extension.
fn is_path(chunk: &str) -> bool {
    let chunk = chunk.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '(' | ')' | '*'));
    let chunk = chunk.trim_end_matches(['.', ',', ';', ':']);
    if chunk.starts_with("./")
        || chunk.starts_with("../")
        || chunk.starts_with('/')
        || chunk.starts_with("~/")
        || chunk.contains("://")
    {
        return true;
    }
    if let Some((_, last)) = chunk.rsplit_once('/')
        && last.contains('.')
    {
        return true;
    }
    // `file.rs`, `package.json`: a name, a dot, a short extension of letters.
    match chunk.rsplit_once('.') {
        Some((name, ext)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphabetic())
                && ext.chars().any(|c| c.is_ascii_lowercase())
                && !matches!(ext, "e" | "g")
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        words(text).0.into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn words_marks_and_contractions() {
        assert_eq!(texts("Tests don't pass ✅"), ["tests", "do", "not", "pass", "✅"]);
        assert_eq!(texts("Can't build"), ["can", "not", "build"]);
        assert_eq!(texts("Fixed src/pass.rs and lib.rs"), ["fixed", "and"]);
        assert_eq!(texts("test_passes_on_empty green"), ["test_passes_on_empty", "green"]);
        assert_eq!(texts("`cargo test` passes."), ["cargo", "test", "passes"]);
        assert_eq!(texts("error-free"), ["error", "free"]);
        assert!(words("Does it pass?").1);
    }

    #[test]
    fn clauses() {
        let (w, _) = words("Fixed X, but tests fail and lint passes");
        let hard: Vec<usize> = w.iter().map(|w| w.hard).collect();
        let soft: Vec<usize> = w.iter().map(|w| w.soft).collect();
        assert_eq!(texts("Fixed X, but tests fail and lint passes").len(), 7);
        assert_eq!(hard, [0, 0, 2, 2, 2, 2, 2]);
        assert_eq!(soft, [0, 0, 2, 2, 3, 3, 3]);
    }
}
