//! The plain-text body of the owner's reply: the reply, then the visitor's message quoted below an
//! attribution line, as mail clients quote.

use chrono::DateTime;

/// Builds the plain-text body of a reply: `reply`, a blank line, the attribution "On 6 December
/// 2026 at 10:00 UTC, Ada Lovelace wrote:", and `original` with each line prefixed by "> " (">"
/// alone for an empty line).
///
/// Line breaks are normalised to `\n`, leading and trailing blank lines of both texts are dropped
/// (and the trailing white space of each line), and the body ends with exactly one `\n`. When
/// `reply` is empty the body starts with the attribution. `author` is put on one line; when it is
/// empty the attribution says "you wrote", and when `at_ms` is out of chrono's range it leaves the
/// date out ("Ada Lovelace wrote:").
pub fn quoted_reply(reply: &str, original: &str, author: &str, at_ms: i64) -> String {
    let reply = tidy_lines(reply);
    let original = tidy_lines(original);
    let author = author.split_whitespace().collect::<Vec<_>>().join(" ");
    let author: String = author.chars().filter(|c| !c.is_control()).collect();
    let author = if author.is_empty() { "you" } else { &author };

    let mut body = String::new();
    for line in &reply {
        body.push_str(line);
        body.push('\n');
    }
    if !reply.is_empty() {
        body.push('\n');
    }
    match DateTime::from_timestamp_millis(at_ms) {
        Some(at) => body.push_str(&format!(
            "On {} at {} UTC, {author} wrote:\n",
            at.format("%-d %B %Y"),
            at.format("%H:%M")
        )),
        None => body.push_str(&format!("{author} wrote:\n")),
    }
    for line in &original {
        if line.is_empty() {
            body.push_str(">\n");
        } else {
            body.push_str("> ");
            body.push_str(line);
            body.push('\n');
        }
    }
    body
}

/// The lines of a text with CRLF or CR line breaks, each without trailing white space, without the
/// blank lines at the start and at the end.
fn tidy_lines(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    let start = lines.iter().position(|line| !line.is_empty());
    let end = lines.iter().rposition(|line| !line.is_empty());
    match (start, end) {
        (Some(start), Some(end)) => lines[start..=end].iter().map(|l| (*l).to_owned()).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::fold::{fold, PartKind};

    /// 6 December 2026 at 10:00 UTC.
    const AT: i64 = 1_796_551_200_000;

    #[test]
    fn reply_with_quote() {
        let body = quoted_reply(
            "Thank you, Charles.\r\n\r\nSee you on Thursday.\r\n",
            "Hello Ada,\r\n\r\nCould we meet?\r\n> an older quote\r\n\r\n",
            "Charles Babbage",
            AT,
        );
        assert_eq!(
            body,
            "Thank you, Charles.\n\nSee you on Thursday.\n\n\
             On 6 December 2026 at 10:00 UTC, Charles Babbage wrote:\n\
             > Hello Ada,\n>\n> Could we meet?\n> > an older quote\n"
        );
        // The visitor's mail client folds it as it folds any answer: the reply is the text.
        let parts = fold(&body);
        assert_eq!(parts[0].kind, PartKind::Text);
        assert_eq!(parts[0].text, "Thank you, Charles.\n\nSee you on Thursday.");
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1].kind, PartKind::Quote);
    }

    #[test]
    fn trailing_white_space_and_odd_inputs() {
        assert_eq!(
            quoted_reply(
                "  Hi  \n\n\n",
                "one  \n\n\ntwo\t\n\n",
                " Ada \n Lovelace ",
                AT
            ),
            "  Hi\n\nOn 6 December 2026 at 10:00 UTC, Ada Lovelace wrote:\n> one\n>\n>\n> two\n"
        );
        assert_eq!(
            quoted_reply("", "x", "", AT),
            "On 6 December 2026 at 10:00 UTC, you wrote:\n> x\n"
        );
        assert_eq!(
            quoted_reply("Hi", "", "Ada", i64::MAX),
            "Hi\n\nAda wrote:\n"
        );
        assert_eq!(
            quoted_reply("Hi", "x\ry", "Ada", 0),
            "Hi\n\nOn 1 January 1970 at 00:00 UTC, Ada wrote:\n> x\n> y\n"
        );
    }
}
