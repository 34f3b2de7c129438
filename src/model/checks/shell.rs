//! A small shell splitter: a command line cut into simple commands joined by `;`, `&&`, `||`, `|`
//! and `&`, with quotes, escapes, subshells and `set -e`/`set -o pipefail` understood, so a check is
//! found wherever it stands in the line and its exit status judged readable or not.

/// How a simple command is joined to the one after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    And,
    Or,
    Seq,
    Pipe,
    Background,
    End,
}

#[derive(Debug)]
pub(super) struct Simple {
    pub(super) words: Vec<String>,
    /// The operator after this command.
    pub(super) next: Op,
}

/// Splits shell text into simple commands and the operators between them. Quotes, escapes,
/// `$(...)` and backticks stay inside words; parentheses and braces of groups are dropped;
/// redirections (`2>&1`, `&>`) are not operators; `#` comments run to the end of the line.
pub(super) fn simple_commands(shell: &str) -> Vec<Simple> {
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let chars: Vec<char> = shell.chars().collect();
    let mut i = 0;
    let finish_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '\\' => {
                in_word = true;
                if i + 1 < chars.len() && chars[i + 1] != '\n' {
                    word.push(chars[i + 1]);
                }
                i += 1;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                in_word = true;
                let end = matching_paren(&chars, i + 1);
                word.extend(&chars[i..end]);
                i = end.saturating_sub(1);
            }
            '`' => {
                in_word = true;
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '`' {
                    j += 1;
                }
                word.extend(&chars[i..(j + 1).min(chars.len())]);
                i = j;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            ' ' | '\t' => finish_word(&mut word, &mut in_word, &mut words),
            '(' | ')' if !in_word || c == ')' => finish_word(&mut word, &mut in_word, &mut words),
            '{' | '}' if !in_word => {}
            '>' | '<' => {
                // A redirection: its operator and target are not command words.
                finish_word(&mut word, &mut in_word, &mut words);
                while i + 1 < chars.len() && matches!(chars[i + 1], '>' | '&' | '|') {
                    i += 1;
                }
                while i + 1 < chars.len() && chars[i + 1] == ' ' {
                    i += 1;
                }
                while i + 1 < chars.len()
                    && !matches!(chars[i + 1], ' ' | '\t' | '\n' | ';' | '|' | '&')
                {
                    i += 1;
                }
            }
            '&' if chars.get(i + 1) == Some(&'>') => {
                finish_word(&mut word, &mut in_word, &mut words);
                i += 1;
                continue;
            }
            '&' | '|' | ';' | '\n' => {
                let (op, len) = match (c, chars.get(i + 1)) {
                    ('&', Some('&')) => (Op::And, 2),
                    ('|', Some('|')) => (Op::Or, 2),
                    ('|', Some('&')) => (Op::Pipe, 2),
                    (';', Some(';')) => (Op::Seq, 2),
                    ('&', _) => (Op::Background, 1),
                    ('|', _) => (Op::Pipe, 1),
                    _ => (Op::Seq, 1),
                };
                finish_word(&mut word, &mut in_word, &mut words);
                if words.is_empty() && op == Op::Seq {
                    // A blank line or `;` after nothing separates nothing.
                    i += len;
                    continue;
                }
                out.push(Simple { words: std::mem::take(&mut words), next: op });
                i += len;
                continue;
            }
            _ => {
                // A digit right before `>` is a file descriptor, not a word.
                if c.is_ascii_digit() && !in_word && matches!(chars.get(i + 1), Some('>' | '<')) {
                    i += 1;
                    continue;
                }
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    finish_word(&mut word, &mut in_word, &mut words);
    if !words.is_empty() {
        out.push(Simple { words, next: Op::End });
    } else if let Some(last) = out.last_mut().filter(|last| last.next == Op::Seq) {
        last.next = Op::End;
    }
    out
}

/// The index just past the `)` that closes the `(` at `open`.
pub(super) fn matching_paren(chars: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (j, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    chars.len()
}
