//! Folding an answer for display: what the person wrote is shown, and the quoted earlier mail and
//! the signature are folded away behind a toggle. Nothing is lost: the parts, joined in order, are
//! the text given.
//!
//! A quote is:
//! - a run of lines starting with ">" (white space before it allowed), wherever it is;
//! - an attribution line, such as Gmail's "On Sun, Dec 6, 2026 at 10:00 AM Ada <a@b.c> wrote:"
//!   (also wrapped over two or three lines), Apple Mail's "On 6 Dec 2026, at 10:00, Ada <a@b.c>
//!   wrote:", the German "Am … schrieb …:", the French "Le … a écrit :", and the Spanish, Italian,
//!   Dutch and Portuguese ones. When ">" lines follow it, the attribution and those lines are the
//!   quote, and text after them (an answer written between the quotes) is text again; otherwise
//!   everything from the attribution on is the quote;
//! - from Outlook's "-----Original Message-----" line (or a forwarded message's), its line of
//!   underscores, or its "From: … Sent: … To: … Subject: …" header block (also in German, French,
//!   Spanish, Italian and Dutch), everything to the end.
//!
//! A signature is, outside quotes, everything from a "-- " line (RFC 3676's delimiter, "--" alone
//! tolerated) up to the next quote or the end, or a "Sent from my iPhone" or "Get Outlook for iOS"
//! kind of line that ends a stretch of text.
//!
//! White space between two parts goes to the folded one (quote or signature), so that a text part
//! next to a folded part neither starts with blank lines nor ends with white space.

/// What a part of an answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartKind {
    /// What the person wrote: shown.
    Text,
    /// Quoted earlier mail, with its attribution line: folded away.
    Quote,
    /// The person's signature: folded away.
    Signature,
}

impl PartKind {
    /// The kind's name for JSON and CSS: "text", "quote" or "signature".
    pub fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::Quote => "quote",
            PartKind::Signature => "signature",
        }
    }

    /// Whether the display folds this kind away.
    fn folded(self) -> bool {
        self != PartKind::Text
    }
}

/// One part of an answer: a stretch of its text and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// What the stretch is.
    pub kind: PartKind,
    /// The stretch of text, exactly as in the answer.
    pub text: String,
}

/// Splits an answer's text into what the person wrote (`Text`) and what the display folds away
/// (`Quote`, `Signature`). The parts, joined in order, are exactly `text`; no two adjacent parts
/// have the same kind, and none is empty. Empty text gives no part. A message that is all quote
/// (or all signature) has no `Text` part at all, not an empty one.
pub fn fold(text: &str) -> Vec<Part> {
    if text.is_empty() {
        return Vec::new();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let content: Vec<&str> = lines
        .iter()
        .map(|line| line.trim_end_matches(['\n', '\r']))
        .collect();
    let mut kinds = vec![PartKind::Text; lines.len()];
    mark_quotes(&content, &mut kinds);
    mark_signatures(&content, &mut kinds);
    settle_blank_lines(&content, &mut kinds);

    let mut parts: Vec<Part> = Vec::new();
    for (line, kind) in lines.iter().zip(kinds) {
        match parts.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(line),
            _ => parts.push(Part {
                kind,
                text: (*line).to_owned(),
            }),
        }
    }
    move_white_space(&mut parts);
    parts
}

/// Whether a line is blank (empty or white space only).
fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Whether a line is quoted with ">".
fn is_quoted(line: &str) -> bool {
    line.trim_start_matches([' ', '\t']).starts_with('>')
}

/// Marks the ">" lines, the attributions and what they introduce as quotes.
fn mark_quotes(content: &[&str], kinds: &mut [PartKind]) {
    for (line, kind) in content.iter().zip(kinds.iter_mut()) {
        if is_quoted(line) {
            *kind = PartKind::Quote;
        }
    }
    let mut i = 0;
    while i < content.len() {
        if kinds[i] == PartKind::Quote || is_blank(content[i]) {
            i += 1;
            continue;
        }
        if is_separator(content, i) {
            kinds[i..].fill(PartKind::Quote);
            return;
        }
        if let Some((end, needs_quote)) = attribution(content, i) {
            let next = (end..content.len()).find(|&j| !is_blank(content[j]));
            match next {
                Some(next) if is_quoted(content[next]) => {
                    kinds[i..next].fill(PartKind::Quote);
                    i = next;
                    continue;
                }
                _ if !needs_quote => {
                    kinds[i..].fill(PartKind::Quote);
                    return;
                }
                _ => {}
            }
        }
        i += 1;
    }
}

/// Whether line `i` starts an Outlook-style quote that runs to the end: an "Original Message" or
/// "Forwarded message" line, a line of underscores, or a header block.
fn is_separator(content: &[&str], i: usize) -> bool {
    let line = content[i].trim();
    if line.len() >= 20 && line.bytes().all(|b| b == b'_') {
        return true;
    }
    if line.starts_with("--") && line.chars().count() <= 80 {
        let words = line
            .trim_matches(|c: char| c == '-' || c == ' ')
            .to_lowercase();
        const ORIGINAL: &[&str] = &[
            "original message",
            "ursprüngliche nachricht",
            "message d'origine",
            "mensaje original",
            "messaggio originale",
            "oorspronkelijk bericht",
            "mensagem original",
            "forwarded message",
            "weitergeleitete nachricht",
            "message transféré",
        ];
        if ORIGINAL.contains(&words.as_str()) {
            return true;
        }
    }
    is_header_block(content, i)
}

/// Whether line `i` starts a header block of a quoted mail: a "From:" line (or "Von:", "De :",
/// "Van:", "Da:") followed within six lines by two more header lines (sent, date, to, subject…).
fn is_header_block(content: &[&str], i: usize) -> bool {
    const FROM: &[&str] = &["from", "von", "de", "van", "da"];
    const OTHERS: &[&str] = &[
        "sent",
        "date",
        "to",
        "cc",
        "subject",
        "gesendet",
        "datum",
        "an",
        "betreff",
        "envoyé",
        "à",
        "objet",
        "enviado",
        "fecha",
        "para",
        "asunto",
        "inviato",
        "data",
        "a",
        "oggetto",
        "verzonden",
        "aan",
        "onderwerp",
    ];
    if !header_key(content[i]).is_some_and(|key| FROM.contains(&key.as_str())) {
        return false;
    }
    let found = content
        .iter()
        .skip(i + 1)
        .take(6)
        .filter_map(|line| header_key(line))
        .filter(|key| OTHERS.contains(&key.as_str()))
        .count();
    found >= 2
}

/// The lowercased key of a "Key: value" line (bold stars of a converted HTML header allowed), if
/// the line is one: a key of one or two words before a colon in its first 24 characters.
fn header_key(line: &str) -> Option<String> {
    let line = line.trim_start().trim_start_matches('*');
    let colon = line.char_indices().take(24).find(|(_, c)| *c == ':')?.0;
    let key = line[..colon].trim().trim_end_matches('*').trim();
    let words = key.split_whitespace().count();
    (!key.is_empty() && words <= 2).then(|| key.to_lowercase())
}

/// An attribution line starting at line `i`, maybe wrapped over up to three lines: returns the
/// line after it, and whether it counts only when ">" lines follow (a bare "Ada wrote:").
fn attribution(content: &[&str], i: usize) -> Option<(usize, bool)> {
    let mut joined = String::new();
    for end in i + 1..=(i + 3).min(content.len()) {
        let line = content[end - 1].trim();
        if end > i + 1 {
            let previous = content[end - 2].trim_end();
            // A wrapped attribution has no blank or quoted line, nor a sentence's end, inside.
            if line.is_empty()
                || is_quoted(line)
                || previous.ends_with(['.', '!', '?', ':'])
                || previous.ends_with(" :")
            {
                return None;
            }
            joined.push(' ');
        }
        if joined.len() + line.len() > 600 {
            return None;
        }
        joined.push_str(line);
        if let Some(needs_quote) = attribution_kind(&joined) {
            return Some((end, needs_quote));
        }
    }
    None
}

/// Whether a (joined) line is an attribution: `Some(false)` for one with its date (it starts with
/// "On", "Am", "Le"… and has a digit or an "@"), `Some(true)` for a bare "… wrote:" that counts
/// only before ">" lines.
fn attribution_kind(line: &str) -> Option<bool> {
    // (Start, words it ends with, a word it must contain).
    const DATED: &[(&str, &str, &str)] = &[
        ("on ", "wrote:", ""),
        ("am ", ":", " schrieb"),
        ("le ", "écrit :", ""),
        ("le ", "écrit:", ""),
        ("el ", "escribió:", ""),
        ("il ", "ha scritto:", ""),
        ("op ", ":", " schreef"),
        ("em ", "escreveu:", ""),
    ];
    const BARE: &[&str] = &[
        "wrote:",
        "schrieb:",
        "écrit :",
        "écrit:",
        "escribió:",
        "ha scritto:",
        "schreef:",
        "escreveu:",
    ];
    if line.chars().count() > 300 {
        return None;
    }
    let lower = line.to_lowercase();
    let detailed = lower.bytes().any(|b| b.is_ascii_digit()) || lower.contains('@');
    let dated = DATED.iter().any(|(start, end, inside)| {
        lower.starts_with(start) && lower.ends_with(end) && lower.contains(inside)
    });
    if dated && detailed {
        return Some(false);
    }
    (line.chars().count() <= 200 && BARE.iter().any(|end| lower.ends_with(end))).then_some(true)
}

/// Whether a line is RFC 3676's signature delimiter "-- " (or "--" alone).
fn is_signature_delimiter(line: &str) -> bool {
    line.trim_end() == "--"
}

/// Whether a line is a mail app's "Sent from my iPhone" kind of signature.
fn is_app_signature(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "sent from my ",
        "sent from mail for ",
        "sent from outlook",
        "sent from yahoo mail",
        "sent from proton mail",
        "sent from protonmail",
        "sent with proton mail",
        "sent from samsung",
        "sent via ",
        "get outlook for ",
        "von meinem ",
        "gesendet von ",
        "gesendet mit ",
        "envoyé de mon ",
        "envoyé depuis ",
        "enviado desde mi ",
        "enviado do meu ",
        "inviato da ",
        "verzonden vanaf ",
        "verstuurd vanaf ",
    ];
    let line = line.trim();
    if line.chars().count() > 80 {
        return false;
    }
    let lower = line.to_lowercase();
    STARTS.iter().any(|start| lower.starts_with(start))
}

/// Marks signatures among the text lines: from a delimiter up to the next quote, and an app's
/// signature line that ends a stretch of text.
fn mark_signatures(content: &[&str], kinds: &mut [PartKind]) {
    let mut i = 0;
    while i < content.len() {
        if kinds[i] == PartKind::Text && is_signature_delimiter(content[i]) {
            while i < content.len() && kinds[i] != PartKind::Quote {
                kinds[i] = PartKind::Signature;
                i += 1;
            }
        }
        i += 1;
    }
    let mut start = 0;
    while start < content.len() {
        let end = (start..content.len())
            .find(|&j| kinds[j] != PartKind::Text)
            .unwrap_or(content.len());
        if let Some(last) = (start..end).rev().find(|&j| !is_blank(content[j])) {
            if is_app_signature(content[last]) {
                kinds[last] = PartKind::Signature;
            }
        }
        start = end + 1;
    }
}

/// Gives each run of blank lines a kind: that of the lines around it when they agree, else that of
/// the folded part next to it (the following one first), else text.
fn settle_blank_lines(content: &[&str], kinds: &mut [PartKind]) {
    let mut i = 0;
    while i < content.len() {
        if !is_blank(content[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < content.len() && is_blank(content[i]) {
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| kinds[j]);
        let after = kinds.get(i).copied();
        let kind = match (before, after) {
            (Some(b), Some(a)) if a == b => a,
            (_, Some(a)) if a.folded() => a,
            (Some(b), _) if b.folded() => b,
            _ => PartKind::Text,
        };
        kinds[start..i].fill(kind);
    }
}

/// Moves the white space at the end of each part followed by a folded part into that part, so
/// that text never ends with white space before a quote or signature.
fn move_white_space(parts: &mut [Part]) {
    for i in 1..parts.len() {
        if !parts[i].kind.folded() {
            continue;
        }
        let end = parts[i - 1].text.trim_end().len();
        if end == 0 {
            continue;
        }
        let tail = parts[i - 1].text.split_off(end);
        parts[i].text.insert_str(0, &tail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::fixtures::fixture;
    use crate::mail::read::read_mail;

    /// The parts' kinds and texts, for short assertions.
    fn parts(text: &str) -> Vec<(PartKind, String)> {
        let parts = fold(text);
        assert_eq!(
            parts.iter().map(|p| p.text.as_str()).collect::<String>(),
            text,
            "the parts must join into the text"
        );
        for pair in parts.windows(2) {
            assert_ne!(pair[0].kind, pair[1].kind, "adjacent parts of one kind");
        }
        assert!(parts.iter().all(|p| !p.text.is_empty()), "an empty part");
        parts.into_iter().map(|p| (p.kind, p.text)).collect()
    }

    /// The text parts of a fixture's folded text, joined, after checking that nothing was lost.
    fn written(raw: &[u8]) -> String {
        let Some(mail) = read_mail(raw) else {
            panic!("not read as a mail");
        };
        parts(&mail.text)
            .into_iter()
            .filter(|(kind, _)| *kind == PartKind::Text)
            .map(|(_, text)| text)
            .collect::<Vec<_>>()
            .join("|")
    }

    /// The kinds of a fixture's parts, in order.
    fn kinds(raw: &[u8]) -> Vec<PartKind> {
        let text = read_mail(raw).map(|mail| mail.text).unwrap_or_default();
        fold(&text).into_iter().map(|p| p.kind).collect()
    }

    use PartKind::{Quote, Signature, Text};

    #[test]
    fn gmail_answer() {
        assert_eq!(
            written(fixture!("gmail")),
            "Dear Ada,\n\nThank you — Thursday at 3 pm works well for me. I will bring the \
             drawings of the Difference Engine, and a few punched cards to show.\n\nBest \
             regards,\nCharles"
        );
        assert_eq!(kinds(fixture!("gmail")), [Text, Signature, Quote]);
    }

    #[test]
    fn outlook_answer() {
        assert_eq!(
            written(fixture!("outlook")),
            "Hello Ada,\n\nThat’s wonderful news. The lecture hall at the café next door is \
             booked for 14:00; I’ll send the address separately.\n\nKind regards,\nMary \
             Somerville"
        );
        assert_eq!(kinds(fixture!("outlook")), [Text, Quote]);
    }

    /// The text parts of a fixture's HTML alternative, converted and folded, joined.
    fn written_in_html(raw: &[u8]) -> String {
        let message = mail_parser::MessageParser::default().parse(raw);
        let html = message
            .as_ref()
            .and_then(|m| m.body_html(0))
            .unwrap_or_default();
        let text = crate::mail::read::html_to_text(&html);
        parts(&text)
            .into_iter()
            .filter(|(kind, _)| *kind == PartKind::Text)
            .map(|(_, text)| text)
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn html_alternatives_fold_like_their_text() {
        assert_eq!(
            written_in_html(fixture!("outlook")),
            written(fixture!("outlook"))
        );
        assert_eq!(
            written_in_html(fixture!("gmail")),
            written(fixture!("gmail"))
        );
    }

    #[test]
    fn apple_mail_answer() {
        assert_eq!(
            written(fixture!("apple")),
            "Hi Ada,\n\nThat sounds perfect. I will send the drawings over by the end of the \
             week, together with my notes on the mill and the store.\n\nCharles"
        );
        assert_eq!(kinds(fixture!("apple")), [Text, Signature, Quote]);
    }

    #[test]
    fn html_only_answer() {
        assert_eq!(
            written(fixture!("html_only")),
            "Hi Ada,\n\nThanks for the quick answer & the links. Three things for the talk:\n\n\
             - A projector <with HDMI>\n- Two microphones\n- Water for the speakers — please, \
             not \"sparkling\"\n\nThe programme is on our site \
             <https://example.org/events/2026?talk=ada&lang=en>, and you can write to me at \
             grace@example.org.\n\nBest, Grace"
        );
        assert_eq!(kinds(fixture!("html_only")), [Text, Quote]);
    }

    #[test]
    fn german_answer() {
        assert_eq!(
            written(fixture!("german")),
            "Liebe Ada,\n\nvielen Dank für Ihre Antwort. Der Termin am Donnerstag passt mir \
             sehr gut, ich bringe die Zeichnungen mit.\n\nViele Grüße\nJürgen"
        );
        assert_eq!(kinds(fixture!("german")), [Text, Signature, Quote]);
    }

    #[test]
    fn attachments_answer() {
        assert_eq!(
            written(fixture!("attachments")),
            "Here are the drawings, and my notes as a page.\n\nCharles"
        );
    }

    #[test]
    fn malformed_answer() {
        assert_eq!(
            written(fixture!("malformed")),
            "Text with a NUL and a bell and bad UTF-8 \u{fffd} here."
        );
        assert_eq!(kinds(fixture!("malformed")), [Text]);
    }

    #[test]
    fn wrapped_attribution() {
        let text = "Yes.\n\nOn Sun, Dec 6, 2026 at 10:00 AM Ada Lovelace <\nada@adalovelace.dev> \
                    wrote:\n\n> Shall we meet?\n";
        assert_eq!(
            parts(text),
            [
                (Text, "Yes.".to_owned()),
                (
                    Quote,
                    "\n\nOn Sun, Dec 6, 2026 at 10:00 AM Ada Lovelace <\nada@adalovelace.dev> \
                     wrote:\n\n> Shall we meet?\n"
                        .to_owned()
                ),
            ]
        );
        let three = "Yes.\nOn Sunday, 6 December 2026 at 10:00:00 Central European\nStandard \
                     Time, Ada Augusta King, Countess of Lovelace\n<ada@adalovelace.dev> wrote:\n\
                     the original, not quoted\n";
        assert_eq!(
            parts(three),
            [
                (Text, "Yes.".to_owned()),
                (Quote, three["Yes.".len()..].to_owned()),
            ]
        );
    }

    #[test]
    fn attributions_in_other_languages() {
        for attribution in [
            "Am So., 6. Dez. 2026 um 10:00 Uhr schrieb Ada Lovelace <ada@adalovelace.dev>:",
            "Am 06.12.26 um 10:00 schrieb Ada Lovelace:",
            "Le dim. 6 déc. 2026 à 10:00, Ada Lovelace <ada@adalovelace.dev> a écrit :",
            "Le 06/12/2026 à 10:00, Ada Lovelace a écrit:",
            "El dom, 6 dic 2026 a las 10:00, Ada Lovelace (<ada@adalovelace.dev>) escribió:",
            "Il giorno dom 6 dic 2026 alle ore 10:00 Ada Lovelace ha scritto:",
            "Op zo 6 dec. 2026 om 10:00 schreef Ada Lovelace <ada@adalovelace.dev>:",
            "On 6 Dec 2026, at 10:00, Ada Lovelace <ada@adalovelace.dev> wrote:",
            "On 12/6/26 10:00 AM, Ada Lovelace wrote:",
        ] {
            let text = format!("Merci !\n\n{attribution}\nOriginal text.\n");
            assert_eq!(
                parts(&text),
                [
                    (Text, "Merci !".to_owned()),
                    (Quote, format!("\n\n{attribution}\nOriginal text.\n"))
                ],
                "{attribution}"
            );
        }
    }

    #[test]
    fn bare_attribution_needs_quoted_lines() {
        let text = "Fine.\n\nAda Lovelace wrote:\n> Hello\n";
        assert_eq!(
            parts(text),
            [
                (Text, "Fine.".to_owned()),
                (Quote, "\n\nAda Lovelace wrote:\n> Hello\n".to_owned())
            ]
        );
        let text = "My teacher once wrote:\nbe brief.\n";
        assert_eq!(parts(text), [(Text, text.to_owned())]);
    }

    #[test]
    fn sentences_are_not_attributions() {
        for text in [
            "On Monday I will bring 3 drawings.\nBob wrote: nothing.\n",
            "On 5 May I will be there.\nBob wrote:\n",
            "On the 6th we spoke about what you wrote: the engine.\n",
        ] {
            assert_eq!(parts(text), [(Text, text.to_owned())], "{text}");
        }
    }

    #[test]
    fn inline_answers_between_quotes_stay_text() {
        let text = "On Sun, Dec 6, 2026 at 10:00 AM Ada <a@b.c> wrote:\n> First question?\n\n\
                    First answer.\n\n> Second question?\n> More.\n\nSecond answer.\n";
        assert_eq!(
            parts(text),
            [
                (
                    Quote,
                    "On Sun, Dec 6, 2026 at 10:00 AM Ada <a@b.c> wrote:\n> First question?\n\n"
                        .to_owned()
                ),
                (Text, "First answer.".to_owned()),
                (Quote, "\n\n> Second question?\n> More.\n\n".to_owned()),
                (Text, "Second answer.\n".to_owned()),
            ]
        );
    }

    #[test]
    fn outlook_separators() {
        for separator in [
            "-----Original Message-----\nFrom: Ada\nSent: today",
            "----- Original Message -----",
            "-----Ursprüngliche Nachricht-----",
            "---------- Forwarded message ---------",
            "________________________________",
            "From: Ada Lovelace <ada@adalovelace.dev>\nSent: Sunday, December 6, 2026 10:00 \
             AM\nTo: Mary <m@x.org>\nSubject: Re: hello",
            "Von: Ada Lovelace <ada@adalovelace.dev>\nGesendet: Sonntag, 6. Dezember 2026 \
             10:00\nAn: Jürgen\nBetreff: Hallo",
            "De : Ada Lovelace\nEnvoyé : dimanche 6 décembre 2026 10:00\nÀ : Marie\nObjet : \
             Bonjour",
            "*From:* Ada Lovelace\n*Date:* Sun, 6 Dec 2026\n*To:* Mary",
        ] {
            let text = format!("Noted, thanks.\r\n\r\n{separator}\r\nOld text.\r\n> old\r\n");
            assert_eq!(
                parts(&text),
                [
                    (Text, "Noted, thanks.".to_owned()),
                    (Quote, text["Noted, thanks.".len()..].to_owned())
                ],
                "{separator}"
            );
        }
        // A "From:" line alone is the person's text.
        let text = "From: the airport I will take a cab.\nTo: the hotel.\n";
        assert_eq!(parts(text), [(Text, text.to_owned())]);
    }

    #[test]
    fn signatures() {
        let text = "Thanks!\n-- \nAda\nadalovelace.dev\n";
        assert_eq!(
            parts(text),
            [
                (Text, "Thanks!".to_owned()),
                (Signature, "\n-- \nAda\nadalovelace.dev\n".to_owned())
            ]
        );
        let text = "Thanks!\n\n--\nAda\n\n> quoted\n";
        assert_eq!(
            parts(text),
            [
                (Text, "Thanks!".to_owned()),
                (Signature, "\n\n--\nAda".to_owned()),
                (Quote, "\n\n> quoted\n".to_owned())
            ]
        );
        for app in [
            "Sent from my iPhone",
            "Get Outlook for iOS",
            "Get Outlook for Android<https://aka.ms/ghei36>",
            "Von meinem iPhone gesendet",
            "Envoyé de mon iPad",
        ] {
            let text = format!("OK, see you.\n\n{app}\n");
            assert_eq!(
                parts(&text),
                [
                    (Text, "OK, see you.".to_owned()),
                    (Signature, format!("\n\n{app}\n"))
                ],
                "{app}"
            );
        }
        // Not at the end of the text: it is what the person wrote.
        let text = "Sent from my iPhone, so excuse typos.\nMore text.\n";
        assert_eq!(parts(text), [(Text, text.to_owned())]);
        // A dash line in the middle of a sentence is not a delimiter.
        let text = "a -- b\n---\n";
        assert_eq!(parts(text), [(Text, text.to_owned())]);
    }

    #[test]
    fn all_quote_has_no_text_part() {
        assert_eq!(
            parts("\n> only\n> quoted\n"),
            [(Quote, "\n> only\n> quoted\n".to_owned())]
        );
        assert_eq!(
            parts("-----Original Message-----\nFrom: x\n"),
            [(Quote, "-----Original Message-----\nFrom: x\n".to_owned())]
        );
        assert_eq!(
            parts("-- \nsig only"),
            [(Signature, "-- \nsig only".to_owned())]
        );
    }

    #[test]
    fn plain_and_empty_text() {
        assert!(fold("").is_empty());
        assert_eq!(parts("\n\n"), [(Text, "\n\n".to_owned())]);
        assert_eq!(
            parts("Just text.\n\nTwo paragraphs.\n"),
            [(Text, "Just text.\n\nTwo paragraphs.\n".to_owned())]
        );
        assert_eq!(
            parts("  indented > not a quote"),
            [(Text, "  indented > not a quote".to_owned())]
        );
        assert_eq!(parts(">"), [(Quote, ">".to_owned())]);
    }

    #[test]
    fn kind_names() {
        assert_eq!(Text.as_str(), "text");
        assert_eq!(Quote.as_str(), "quote");
        assert_eq!(Signature.as_str(), "signature");
    }
}
