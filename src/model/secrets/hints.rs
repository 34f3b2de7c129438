//! The literal words the secret rules' matches must contain, found before any regex runs: a rule
//! whose words are absent from a text never compiles or runs. A short text is searched for each
//! word in turn, a long one in one pass by an automaton.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};

/// The rules' hints (and the PEM one), each a word a rule's match must contain, ASCII case aside.
/// On a long text they are found in one pass by an automaton: a search per hint went over it some
/// eighty times, which on source files cost more than the rules themselves. Building that automaton
/// costs about a third of a millisecond, more than `record` spends on everything else it does, so a
/// short text is searched for each hint in turn, unless the automaton is already built.
pub(super) struct Hints {
    /// In lower case.
    pub(super) words: Vec<&'static str>,
    searcher: OnceLock<AhoCorasick>,
    /// For each rule, the numbers of its hints.
    pub(super) of_rule: Vec<Vec<usize>>,
    pub(super) pem: usize,
}

/// Up to this length a text is searched for each hint in turn (see [`Hints`]).
const SHORT_TEXT: usize = 8 * 1024;

impl Hints {
    /// The hints `first` and each rule's, numbered in order, each word once.
    pub(super) fn new(
        first: &'static str,
        rules: impl Iterator<Item = &'static [&'static str]>,
    ) -> Hints {
        let mut words: Vec<&str> = vec![first];
        let mut number = |word: &'static str| match words.iter().position(|w| *w == word) {
            Some(i) => i,
            None => {
                words.push(word);
                words.len() - 1
            }
        };
        let of_rule = rules.map(|hints| hints.iter().map(|h| number(h)).collect()).collect();
        debug_assert!(words.iter().all(|w| !w.bytes().any(|b| b.is_ascii_uppercase())));
        Hints { words, searcher: OnceLock::new(), of_rule, pem: 0 }
    }

    pub(super) fn searcher(&self) -> &AhoCorasick {
        self.searcher.get_or_init(|| {
            // Overlapping matches: a hint inside another (`key` in `apikey`) must be found too.
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .kind(Some(AhoCorasickKind::DFA))
                .build(&self.words)
                .expect("secret hints are valid")
        })
    }

    /// Which hints `text` contains.
    pub(super) fn in_text(&self, text: &str) -> Vec<bool> {
        if text.len() <= SHORT_TEXT && self.searcher.get().is_none() {
            self.each_in(text)
        } else {
            self.all_in(text)
        }
    }

    /// Which hints `text` contains, searched for one by one.
    fn each_in(&self, text: &str) -> Vec<bool> {
        let lower = text.to_ascii_lowercase();
        let found = |word: &&str| memchr::memmem::find(lower.as_bytes(), word.as_bytes()).is_some();
        self.words.iter().map(found).collect()
    }

    /// Which hints `text` contains, all found in one pass.
    fn all_in(&self, text: &str) -> Vec<bool> {
        let mut seen = vec![false; self.words.len()];
        let mut left = self.words.len();
        for m in self.searcher().find_overlapping_iter(text) {
            let i = m.pattern().as_usize();
            if !seen[i] {
                seen[i] = true;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hints_are_found_alike_one_by_one_and_in_one_pass() {
        let hints = crate::model::secrets::hints();
        let mixed = |w: &str| -> String {
            w.chars()
                .enumerate()
                .map(|(i, c)| if i % 2 == 0 { c.to_ascii_uppercase() } else { c })
                .collect()
        };
        let mut texts: Vec<String> = vec![String::new(), "nothing here, ünïcödé".into()];
        texts.extend(hints.words.iter().map(|w| format!("é{}é", mixed(w))));
        texts.push(hints.words.iter().map(|w| mixed(w)).collect::<Vec<_>>().join(""));
        texts.push("my_APIKEY: x; sshpass -p y".into());
        for text in &texts {
            assert_eq!(hints.each_in(text), hints.all_in(text), "{text:?}");
        }
        let key = hints.words.iter().position(|w| *w == "key").expect("a hint");
        assert!(hints.each_in("xAPIKEYx")[key] && hints.all_in("xAPIKEYx")[key]);
    }
}
