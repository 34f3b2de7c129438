//! A claim cut into words and clauses: lower-cased words (letters, digits and `_`), check marks
//! read as words (`✅` is `✅`, `❌` `✓` `✗` `🎉` `⚠` likewise), contractions spelled out (`don't`
//! is `do not`), and paths, file names and addresses left out (`src/pass.rs` says nothing about
//! passing). Every word knows its clause: a hard clause ends at punctuation (`,` `;` `:` `.` `(`
//! `|` a dash) or `but`; a soft clause also ends at `and`, `or`, `so`, `when`, `because` ...; a
//! sentence ends at `.` `!` `?` `;` `:` `|`. A question's words are left out ("Does the build
//! pass on Windows?" claims nothing, "Fixed it. Does it build?" claims the fix). A word in a code
//! span or an option (`` `resolved` ``, `--fixed-width`) is a name, and a word joined by a hyphen
//! to the next (`fixed-width`, `pass-through`) a modifier: neither claims success.

/// One word of a claim and the clauses it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// The hard clause: punctuation and `but` end it.
    pub hard: usize,
    /// The soft clause: conjunctions end it too.
    pub soft: usize,
    /// The sentence: `.` `!` `?` `;` `:` `|` end it.
    pub sentence: usize,
    /// In a code span or an option: a name, not a word of the sentence's own.
    pub name: bool,
    /// Joined by a hyphen to the next word (`fixed-width`).
    pub joined: bool,
}

/// Words that end a hard clause (and are not kept).
const HARD_BREAKS: [&str; 5] = ["but", "however", "though", "although", "whereas"];

/// Words that end a soft clause (and are kept).
const SOFT_BREAKS: [&str; 12] = [
    "and", "or", "so", "then", "while", "because", "since", "after", "before", "when", "where",
    "which",
];

/// The words read so far and where the reader stands.
#[derive(Default)]
struct Reader {
    out: Vec<Word>,
    word: String,
    hard: usize,
    soft: usize,
    sentence: usize,
    /// Where the current sentence's words start in `out`.
    sentence_start: usize,
    code: bool,
    option: bool,
}

impl Reader {
    fn push(&mut self, joined: bool) {
        if self.word.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.word);
        if HARD_BREAKS.contains(&text.as_str()) {
            self.clause();
            return;
        }
        if SOFT_BREAKS.contains(&text.as_str()) {
            self.soft += 1;
        }
        let name = self.code || self.option;
        let (hard, soft, sentence) = (self.hard, self.soft, self.sentence);
        self.out.push(Word { text, hard, soft, sentence, name, joined });
    }

    fn clause(&mut self) {
        self.hard += 1;
        self.soft += 1;
    }

    fn end_sentence(&mut self, question: bool) {
        if question {
            self.out.truncate(self.sentence_start);
        }
        self.clause();
        self.sentence += 1;
        self.sentence_start = self.out.len();
    }
}

/// The words of `text`, in order, and whether it ends as a question.
pub fn words(text: &str) -> (Vec<Word>, bool) {
    let text = text.trim();
    let question = text.trim_end_matches(['*', '_', ')', '|', ' ']).ends_with('?');
    let mut r = Reader::default();
    let lower = spell_out(&text.to_lowercase());
    for chunk in lower.split_whitespace() {
        if is_path(chunk) {
            if chunk.matches('`').count() % 2 == 1 {
                r.code = !r.code;
            }
            // A path says nothing, but a sentence may end with it.
            if chunk.ends_with(['.', ';', ':']) {
                r.end_sentence(false);
            } else if chunk.ends_with(',') {
                r.clause();
            }
            continue;
        }
        if chunk == "-" || chunk == "--" || chunk == "—" || chunk == "–" {
            r.clause();
            continue;
        }
        r.option = !r.code
            && chunk
                .strip_prefix('-')
                .is_some_and(|rest| rest.starts_with(|c: char| c == '-' || c.is_alphanumeric()));
        let chars: Vec<char> = chunk.chars().collect();
        for (k, &c) in chars.iter().enumerate() {
            if c.is_alphanumeric() || c == '_' {
                r.word.push(c);
                continue;
            }
            let joined = c == '-' && chars.get(k + 1).is_some_and(|n| n.is_alphanumeric());
            r.push(joined);
            let mark = match c {
                '✅' | '✔' | '✓' | '☑' | '🟢' | '👍' | '🎉' => Some("✅"),
                '❌' | '✗' | '✘' | '🔴' | '⛔' | '🚫' | '⚠' => Some("❌"),
                _ => None,
            };
            if let Some(mark) = mark {
                r.word.push_str(mark);
                r.push(false);
            } else if c == '`' {
                r.code = !r.code;
            } else if c == '?' {
                r.end_sentence(true);
            } else if matches!(c, '.' | '!' | ';' | ':' | '|') {
                r.end_sentence(false);
            } else if matches!(c, ',' | '(' | ')' | '[' | ']' | '—' | '–' | '→' | '=' | '·' | '•')
            {
                r.clause();
            }
        }
        r.push(false);
        r.option = false;
    }
    (r.out, question)
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
        assert!(words("Does it pass?").0.is_empty());
        assert_eq!(texts("Fixed it. Does it build on Windows?"), ["fixed", "it"]);
        assert_eq!(texts("| Does it build? | unknown |"), ["unknown"]);
    }

    #[test]
    fn names_and_modifiers() {
        let (w, _) = words("Added `--fixed-width` and -x, the `resolved` state; fixed-width ok");
        let flags: Vec<(&str, bool, bool)> =
            w.iter().map(|w| (w.text.as_str(), w.name, w.joined)).collect();
        assert_eq!(
            flags,
            [
                ("added", false, false),
                ("fixed", true, true),
                ("width", true, false),
                ("and", false, false),
                ("x", true, false),
                ("the", false, false),
                ("resolved", true, false),
                ("state", false, false),
                ("fixed", false, true),
                ("width", false, false),
                ("ok", false, false),
            ]
        );
        // A path with a code span's tick opens the span.
        let (w, _) = words("`./gradlew ktlintCheck` passes");
        assert_eq!(w.iter().map(|w| w.name).collect::<Vec<_>>(), [true, false]);
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
