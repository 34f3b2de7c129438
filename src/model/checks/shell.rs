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
    let mut splitter = Splitter {
        chars: shell.chars().collect(),
        i: 0,
        word: String::new(),
        in_word: false,
        words: Vec::new(),
        out: Vec::new(),
    };
    while splitter.i < splitter.chars.len() {
        splitter.step();
    }
    splitter.finish()
}

/// The splitter's state: the text, where it stands (`i`), the word it is in (if `in_word`), the
/// words of the simple command so far, and the simple commands before it.
struct Splitter {
    chars: Vec<char>,
    i: usize,
    word: String,
    in_word: bool,
    words: Vec<String>,
    out: Vec<Simple>,
}

impl Splitter {
    fn at(&self, j: usize) -> Option<char> {
        self.chars.get(j).copied()
    }

    /// Reads what starts at `i` and moves past it.
    fn step(&mut self) {
        let c = self.chars[self.i];
        match c {
            '\'' => self.single_quoted(),
            '"' => self.double_quoted(),
            '\\' => self.escaped(),
            '$' if self.at(self.i + 1) == Some('(') => self.substitution(),
            '`' => self.backticks(),
            '#' if !self.in_word => self.comment(),
            ' ' | '\t' => self.blank(),
            '(' | ')' if !self.in_word || c == ')' => self.blank(),
            '{' | '}' if !self.in_word => self.i += 1,
            '>' | '<' => self.redirection(),
            // `&>`: the redirection starts at `>`.
            '&' if self.at(self.i + 1) == Some('>') => {
                self.end_word();
                self.i += 1;
            }
            '&' | '|' | ';' | '\n' => self.operator(c),
            _ => self.plain(c),
        }
    }

    /// The word ends (if one was begun).
    fn end_word(&mut self) {
        if self.in_word {
            self.words.push(std::mem::take(&mut self.word));
            self.in_word = false;
        }
    }

    /// A blank, or a group's parenthesis: the word ends.
    fn blank(&mut self) {
        self.end_word();
        self.i += 1;
    }

    /// `'...'`: everything up to the closing quote, as it stands.
    fn single_quoted(&mut self) {
        self.in_word = true;
        self.i += 1;
        while let Some(c) = self.at(self.i).filter(|&c| c != '\'') {
            self.word.push(c);
            self.i += 1;
        }
        self.i += 1;
    }

    /// `"..."`: everything up to the closing quote, a backslash escaping the character after it.
    fn double_quoted(&mut self) {
        self.in_word = true;
        self.i += 1;
        while let Some(mut c) = self.at(self.i).filter(|&c| c != '"') {
            if c == '\\' && self.i + 1 < self.chars.len() {
                self.i += 1;
                c = self.chars[self.i];
            }
            self.word.push(c);
            self.i += 1;
        }
        self.i += 1;
    }

    /// `\x`: the character after the backslash, in the word; a backslash-newline joins lines.
    fn escaped(&mut self) {
        self.in_word = true;
        if let Some(c) = self.at(self.i + 1).filter(|&c| c != '\n') {
            self.word.push(c);
        }
        self.i += 2;
    }

    /// `$(...)`, kept whole in the word.
    fn substitution(&mut self) {
        self.in_word = true;
        let end = matching_paren(&self.chars, self.i + 1);
        self.word.extend(&self.chars[self.i..end]);
        self.i = end;
    }

    /// `` `...` ``, kept whole in the word.
    fn backticks(&mut self) {
        self.in_word = true;
        let mut j = self.i + 1;
        while self.at(j).is_some_and(|c| c != '`') {
            j += 1;
        }
        self.word.extend(&self.chars[self.i..(j + 1).min(self.chars.len())]);
        self.i = j + 1;
    }

    /// `# ...`: up to the end of the line, which is then read as a separator.
    fn comment(&mut self) {
        while self.at(self.i).is_some_and(|c| c != '\n') {
            self.i += 1;
        }
    }

    /// A redirection: its operator and target are not command words.
    fn redirection(&mut self) {
        self.end_word();
        self.skip_after(|c| matches!(c, '>' | '&' | '|'));
        self.skip_after(|c| c == ' ');
        self.skip_after(|c| !matches!(c, ' ' | '\t' | '\n' | ';' | '|' | '&'));
        self.i += 1;
    }

    /// Moves `i` over the characters after it that `skip` accepts.
    fn skip_after(&mut self, skip: impl Fn(char) -> bool) {
        while self.at(self.i + 1).is_some_and(&skip) {
            self.i += 1;
        }
    }

    /// An operator (`&&`, `||`, `|`, `|&`, `;`, `;;`, `&`, a newline): the simple command ends.
    fn operator(&mut self, c: char) {
        let (op, len) = match (c, self.at(self.i + 1)) {
            ('&', Some('&')) => (Op::And, 2),
            ('|', Some('|')) => (Op::Or, 2),
            ('|', Some('&')) => (Op::Pipe, 2),
            (';', Some(';')) => (Op::Seq, 2),
            ('&', _) => (Op::Background, 1),
            ('|', _) => (Op::Pipe, 1),
            _ => (Op::Seq, 1),
        };
        self.end_word();
        self.i += len;
        // A blank line or `;` after nothing separates nothing.
        if !self.words.is_empty() || op != Op::Seq {
            self.out.push(Simple { words: std::mem::take(&mut self.words), next: op });
        }
    }

    /// Any other character: part of the word, but a digit right before `>` is a file descriptor.
    fn plain(&mut self, c: char) {
        let descriptor =
            c.is_ascii_digit() && !self.in_word && matches!(self.at(self.i + 1), Some('>' | '<'));
        if !descriptor {
            self.in_word = true;
            self.word.push(c);
        }
        self.i += 1;
    }

    /// The last simple command ends with the text; a trailing separator ends the one before.
    fn finish(mut self) -> Vec<Simple> {
        self.end_word();
        if !self.words.is_empty() {
            self.out.push(Simple { words: self.words, next: Op::End });
        } else if let Some(last) = self.out.last_mut().filter(|last| last.next == Op::Seq) {
            last.next = Op::End;
        }
        self.out
    }
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
