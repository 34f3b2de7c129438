//! Words put into a command that someone is told to run: the prompt's step 4, a hint in an error,
//! the skill's and the MCP replies' commands. Any of them may carry a string from the repository
//! (a config value, a file, branch or remote name), and a cloned repository is a stranger's: each
//! such word is quoted for a POSIX shell, so what the agent or the user pastes runs that one
//! command and nothing the string holds.

/// `word` as a POSIX shell reads it back: unchanged when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside written `'\''`).
pub fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The words of a command line, each quoted, separated by spaces.
pub fn quote_all<S: AsRef<str>>(words: &[S]) -> String {
    words.iter().map(|w| quote(w.as_ref())).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_and_the_rest_is_quoted() {
        assert_eq!(quote(".agent/handoff/7.md"), ".agent/handoff/7.md");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote(".agent/$(touch /tmp/x)/7.md"), "'.agent/$(touch /tmp/x)/7.md'");
        assert_eq!(quote("a`b`;c|d&e>f\n"), "'a`b`;c|d&e>f\n'");
        assert_eq!(quote("ü"), "'ü'");
        assert_eq!(quote_all(&["show", "--format=%h %s", "HEAD"]), "show '--format=%h %s' HEAD");
    }

    /// What `sh` reads back from a quoted word is the word, whatever it holds.
    #[test]
    fn the_shell_reads_back_the_word() {
        let words = ["$(touch x)", "a'b", "`id`", "x; y", "new\nline", "-n", "\\", "'", "ü é"];
        for word in words {
            let out = std::process::Command::new("sh")
                .args(["-c", &format!("printf %s {}", quote(word))])
                .output()
                .unwrap();
            assert_eq!(String::from_utf8(out.stdout).unwrap(), word, "{word:?}");
        }
    }
}
