//! Text written into a mail's headers.

/// Line breaks in a header value would be folded by the mail library; spaces read better.
pub fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_text_is_kept_on_one_line() {
        assert_eq!(one_line("Hi\r\nBcc: x@y.z"), "Hi Bcc: x@y.z");
    }
}
