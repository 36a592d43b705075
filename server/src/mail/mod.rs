//! Incoming and outgoing e-mail text: reading a visitor's raw answer safely (`read`), folding its
//! quoted earlier mail and signature away for display (`fold`), and quoting the visitor's message
//! in the owner's reply (`quote`). Everything here is a pure function: no I/O, no database.

#[cfg(test)]
mod fixtures;
pub mod fold;
pub mod quote;
pub mod read;

pub use fold::{fold, Part, PartKind};
pub use quote::quoted_reply;
pub use read::{read_mail, MailAttachment, ReadMail};

#[cfg(test)]
mod tests {
    use super::fixtures::fixture;
    use super::read::{MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, MAX_TEXT_CHARS};
    use super::*;

    /// Every fixture, by name.
    const FIXTURES: &[(&str, &[u8])] = &[
        ("gmail", fixture!("gmail")),
        ("outlook", fixture!("outlook")),
        ("apple", fixture!("apple")),
        ("html_only", fixture!("html_only")),
        ("attachments", fixture!("attachments")),
        ("german", fixture!("german")),
        ("malformed", fixture!("malformed")),
    ];

    /// Reads and folds bytes, checking every promise of `read_mail` and `fold` on the way.
    fn check(raw: &[u8]) {
        if let Some(mail) = read_mail(raw) {
            let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
            assert!(!mail.text.chars().any(bad), "control character in the text");
            assert!(mail.text.chars().count() <= MAX_TEXT_CHARS);
            assert!(!mail.subject.chars().any(char::is_control));
            assert!(mail.subject.chars().count() <= 300);
            for name in mail.from_name.iter().chain(&mail.message_id) {
                assert!(!name.is_empty() && !name.chars().any(char::is_control));
            }
            assert!(mail.attachments.len() <= MAX_ATTACHMENTS);
            for attachment in &mail.attachments {
                let name = &attachment.name;
                assert!(!name.is_empty() && name.chars().count() <= 200);
                assert!(!name.contains(['/', '\\', '"']) && !name.chars().any(char::is_control));
                assert!(attachment.content_type.contains('/'));
                match &attachment.bytes {
                    Some(bytes) => assert_eq!(bytes.len() as u64, attachment.size),
                    None => assert!(attachment.size > MAX_ATTACHMENT_BYTES as u64),
                }
            }
            check_fold(&mail.text);
        }
        check_fold(&String::from_utf8_lossy(raw));
    }

    /// Folds text, checking that the parts join into it.
    fn check_fold(text: &str) {
        let parts = fold(text);
        assert_eq!(
            parts.iter().map(|p| p.text.as_str()).collect::<String>(),
            text
        );
        let _ = quoted_reply(text, text, text, i64::MIN);
    }

    /// A small deterministic pseudo-random generator (xorshift), so that failures repeat.
    struct Noise(u64);

    impl Noise {
        fn next(&mut self) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 as usize
        }
    }

    #[test]
    fn prefixes_of_every_fixture_never_panic() {
        for (_, raw) in FIXTURES {
            for len in (0..=raw.len()).step_by(3) {
                check(&raw[..len]);
            }
            for start in (0..raw.len()).step_by(17) {
                check(&raw[start..]);
            }
        }
    }

    #[test]
    fn garbled_fixtures_never_panic() {
        const SPICE: &[&[u8]] = &[
            b"\0",
            b"\r",
            b"\n",
            b"\r\n",
            b"<",
            b">",
            b"&",
            b"&#",
            b";",
            b"=",
            b"=\r\n",
            b"=?",
            b"?=",
            b"--",
            b"\r\n--",
            b"\"",
            b"'",
            b"\xff",
            b"\xc3",
            b"\xe2\x80",
            b"> ",
            b"-- \n",
            b"<a href=",
            b"<!--",
            b"<script>",
            b"<pre>",
            b"<blockquote>",
            b"<li>",
            b"&#0;",
            b"&#x110000;",
            b"boundary=",
            b"Content-Type: multipart/mixed; boundary=x\r\n",
            b"Content-Transfer-Encoding: base64\r\n",
            b"format=flowed",
            b"\r\n\r\n",
        ];
        let mut noise = Noise(0x9e37_79b9_7f4a_7c15);
        for (_, raw) in FIXTURES {
            for _ in 0..300 {
                let mut garbled = raw.to_vec();
                for _ in 0..1 + noise.next() % 8 {
                    let at = noise.next() % (garbled.len() + 1);
                    match noise.next() % 4 {
                        0 if at < garbled.len() => garbled[at] = noise.next() as u8,
                        1 if at < garbled.len() => {
                            let end = (at + noise.next() % 64).min(garbled.len());
                            garbled.drain(at..end);
                        }
                        _ => {
                            let spice = SPICE[noise.next() % SPICE.len()];
                            garbled.splice(at..at, spice.iter().copied());
                        }
                    }
                }
                check(&garbled);
            }
        }
        for len in 0..64 {
            let bytes: Vec<u8> = (0..len * 7).map(|_| noise.next() as u8).collect();
            check(&bytes);
        }
    }

    #[test]
    fn html_prefixes_never_panic() {
        let Some(mail) = mail_parser::MessageParser::default().parse(fixture!("html_only")) else {
            panic!("the fixture is not a mail");
        };
        let html = mail.body_html(0).unwrap_or_default();
        for end in (0..=html.len()).filter(|&end| html.is_char_boundary(end)) {
            let text = read::html_to_text(&html[..end]);
            assert!(!text.contains("<script") && !text.contains("alert"));
        }
    }
}
