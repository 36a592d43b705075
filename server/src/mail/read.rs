//! Reading an incoming raw e-mail (RFC 5322 with MIME) into what the inbox keeps and shows: its
//! threading ids, sender, subject, date, plain text and attachments. Every field is cleaned and
//! bounded, whatever the input: a mail is data from anyone on the Internet.

use std::borrow::Cow;

use mail_parser::decoders::html::add_html_token;
use mail_parser::{
    Encoding, HeaderName, HeaderValue, Message, MessageParser, MessagePart, MimeHeaders, PartType,
};

/// The most characters of text kept: longer text is cut at a character boundary and `cut` is set.
pub const MAX_TEXT_CHARS: usize = 100_000;

/// The largest attachment whose bytes are kept: a bigger one is listed (name, type and size), but
/// its bytes are not.
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

/// The most attachments listed: further ones are only counted in `attachments_left_out`.
pub const MAX_ATTACHMENTS: usize = 20;

/// The most characters kept of a one-line field (the subject and the sender's name).
const MAX_LINE_CHARS: usize = 300;

/// The most characters of an attachment's file name.
const MAX_NAME_CHARS: usize = 200;

/// The most message ids kept from In-Reply-To or References (the last ones, the most recent).
const MAX_IDS: usize = 100;

/// The longest message id kept: RFC 5322's line length limit.
const MAX_ID_CHARS: usize = 998;

/// An incoming e-mail as the inbox keeps it: every text field is valid UTF-8 without control
/// characters (but for the text's line breaks and tabs) and bounded in length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadMail {
    /// The Message-ID, without its angle brackets and trimmed; `None` when it is absent or empty.
    pub message_id: Option<String>,
    /// The ids of In-Reply-To, without angle brackets (at most the last 100).
    pub in_reply_to: Vec<String>,
    /// The ids of References, without angle brackets, oldest first (at most the last 100).
    pub references: Vec<String>,
    /// The From address (its addr-spec), lowercased; `None` when it is absent or not an address.
    pub from_address: Option<String>,
    /// The From display name, decoded and on one line; `None` when it is absent or empty.
    pub from_name: Option<String>,
    /// The subject, decoded (RFC 2047), on one line, at most 300 characters; empty when absent.
    pub subject: String,
    /// The Date header as Unix milliseconds; `None` when it is absent or not a valid date.
    pub date: Option<i64>,
    /// The mail's plain text: its text/plain part, or, when it has only HTML, that HTML converted
    /// to plain text (never the HTML itself). Line breaks are `\n`; format=flowed text is joined
    /// back into its paragraphs; leading blank lines and trailing white space are removed.
    pub text: String,
    /// Whether `text` (or a part of it) was converted from HTML.
    pub from_html: bool,
    /// Whether `text` was cut at `MAX_TEXT_CHARS` characters.
    pub cut: bool,
    /// The attachments, in the mail's order, at most `MAX_ATTACHMENTS`. Inline images of an HTML
    /// body and attached mails (as `.eml`) are listed too.
    pub attachments: Vec<MailAttachment>,
    /// How many attachments were left out of `attachments` past `MAX_ATTACHMENTS`.
    pub attachments_left_out: usize,
}

/// One attachment of an incoming mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailAttachment {
    /// A file name safe for a Content-Disposition header: no path, no control characters, no
    /// quotes, at most 200 characters; "attachment-N" (with an extension for common types) when
    /// the mail gave none.
    pub name: String,
    /// The lowercased `type/subtype`, without parameters; "application/octet-stream" when the
    /// mail's is missing or malformed. A text attachment's bytes are UTF-8, whatever its charset
    /// was in the mail.
    pub content_type: String,
    /// The decoded size in bytes.
    pub size: u64,
    /// The decoded bytes; `None` when the attachment is larger than `MAX_ATTACHMENT_BYTES`.
    pub bytes: Option<Vec<u8>>,
}

/// Reads a raw e-mail. Returns `None` only when the bytes are not a mail at all: no header that a
/// mail has (From, To, Subject, Date, Message-ID, MIME-Version, Content-Type and the like).
/// Anything else malformed is read as well as it can be, and never panics.
pub fn read_mail(raw: &[u8]) -> Option<ReadMail> {
    let message = MessageParser::default().parse(raw)?;
    if !has_mail_header(&message) {
        return None;
    }

    let (text, from_html) = body_text(&message);
    let (text, cut) = cut_text(clean_text(&text));
    let (attachments, attachments_left_out) = attachments(&message);
    let from = message.from().and_then(|from| from.first());

    Some(ReadMail {
        message_id: message.message_id().and_then(clean_id),
        in_reply_to: ids(message.in_reply_to()),
        references: ids(message.references()),
        from_address: from
            .and_then(|a| a.address.as_deref())
            .and_then(clean_address),
        from_name: from
            .and_then(|a| a.name.as_deref())
            .map(|name| one_line(name, MAX_LINE_CHARS))
            .filter(|name| !name.is_empty()),
        subject: message
            .subject()
            .map(|subject| one_line(subject, MAX_LINE_CHARS))
            .unwrap_or_default(),
        date: message
            .date()
            .filter(|date| date.is_valid())
            .map(|date| date.to_timestamp().saturating_mul(1000)),
        text,
        from_html,
        cut,
        attachments,
        attachments_left_out,
    })
}

/// Whether the message's top-level headers include one that only a mail has. (The parser's own
/// header accessors read the first part unchecked: this check, which does not, comes first.)
fn has_mail_header(message: &Message<'_>) -> bool {
    let Some(root) = message.parts.first() else {
        return false;
    };
    root.headers.iter().any(|header| {
        matches!(
            header.name,
            HeaderName::From
                | HeaderName::Sender
                | HeaderName::To
                | HeaderName::Cc
                | HeaderName::Subject
                | HeaderName::Date
                | HeaderName::MessageId
                | HeaderName::InReplyTo
                | HeaderName::References
                | HeaderName::MimeVersion
                | HeaderName::ContentType
                | HeaderName::Received
                | HeaderName::ReturnPath
        )
    })
}

/// The message's text: its text body parts in order, HTML ones converted. When the text parts hold
/// nothing but white space, the HTML body is used instead. Returns the text and whether any of
/// it came from HTML.
fn body_text(message: &Message<'_>) -> (String, bool) {
    let pieces = |ids: &[u32]| {
        let mut text = String::new();
        let mut from_html = false;
        for part in ids.iter().filter_map(|&id| message.parts.get(id as usize)) {
            let piece = match &part.body {
                PartType::Text(plain) => plain_text(part, plain),
                PartType::Html(html) => {
                    from_html = true;
                    html_to_text(html)
                }
                _ => continue,
            };
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&piece);
        }
        (text, from_html)
    };
    let (text, from_html) = pieces(&message.text_body);
    if !text.trim().is_empty() {
        return (text, from_html);
    }
    let (html_text, _) = pieces(&message.html_body);
    if html_text.trim().is_empty() {
        (text, false)
    } else {
        (html_text, true)
    }
}

/// A text/plain part's text with `\n` line breaks, its format=flowed paragraphs joined.
fn plain_text(part: &MessagePart<'_>, text: &str) -> String {
    let text = normalise_newlines(text);
    let content_type = part.content_type();
    let flowed = content_type
        .and_then(|ct| ct.attribute("format"))
        .is_some_and(|format| format.trim().eq_ignore_ascii_case("flowed"));
    if !flowed {
        return text.into_owned();
    }
    let delsp = content_type
        .and_then(|ct| ct.attribute("delsp"))
        .is_some_and(|delsp| delsp.trim().eq_ignore_ascii_case("yes"));
    unflow(&text, delsp)
}

/// Replaces CRLF and lone CR line breaks with `\n`.
fn normalise_newlines(text: &str) -> Cow<'_, str> {
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// Decodes RFC 3676 format=flowed text (with `\n` line breaks): a line ending in a space goes on
/// in the next line of the same quote depth, space-stuffing is removed, and quoted lines are
/// written back with one "> " per level of depth.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The quote depth of a paragraph whose last line was soft (ended in a space).
    let mut open: Option<usize> = None;
    let lines = text.strip_suffix('\n').unwrap_or(text);
    for line in lines.split('\n') {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let rest = &line[depth..];
        let content = rest.strip_prefix(' ').unwrap_or(rest);
        let signature = content == "-- ";
        let soft = content.ends_with(' ') && !signature;
        match open {
            Some(open_depth) if open_depth == depth => {}
            Some(_) => {
                // A soft line followed by another depth is a hard break (RFC 3676, 4.5).
                out.push('\n');
                write_quote_prefix(&mut out, depth, content.is_empty());
            }
            None => write_quote_prefix(&mut out, depth, content.is_empty()),
        }
        if soft {
            let content = if delsp {
                content.strip_suffix(' ').unwrap_or(content)
            } else {
                content
            };
            out.push_str(content);
            open = Some(depth);
        } else {
            out.push_str(content);
            out.push('\n');
            open = None;
        }
    }
    out
}

/// Writes the quote markers of a line of the given depth: "> " per level, without the last space
/// when the line is empty.
fn write_quote_prefix(out: &mut String, depth: usize, empty: bool) {
    for level in 0..depth {
        out.push('>');
        if !empty || level + 1 < depth {
            out.push(' ');
        }
    }
}

/// Removes control characters (all but `\n` and `\t`) and byte order marks, turns the remaining
/// CR and Unicode line separators into `\n`, and trims leading blank lines and trailing white
/// space.
fn clean_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\u{2028}' | '\u{2029}' => out.push('\n'),
            '\n' | '\t' => out.push(c),
            '\u{feff}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    let end = out.trim_end().len();
    out.truncate(end);
    // Leading blank lines go, but not the indentation of the first line with text.
    let start = out
        .char_indices()
        .take_while(|(_, c)| c.is_whitespace())
        .filter(|(_, c)| *c == '\n')
        .last()
        .map_or(0, |(i, _)| i + 1);
    out.split_off(start)
}

/// Cuts text to `MAX_TEXT_CHARS` characters; returns it and whether it was cut.
fn cut_text(mut text: String) -> (String, bool) {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => {
            text.truncate(end);
            (text, true)
        }
        None => (text, false),
    }
}

/// Text on one line: runs of white space become one space, control characters and byte order
/// marks go, the ends are trimmed, and at most `max` characters are kept.
fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
        } else if c.is_control() || c == '\u{feff}' {
            continue;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    match out.char_indices().nth(max) {
        Some((end, _)) => {
            out.truncate(end);
            let end = out.trim_end().len();
            out.truncate(end);
            out
        }
        None => out,
    }
}

/// A message id without angle brackets, white space or control characters; `None` when nothing is
/// left or it is longer than RFC 5322 allows.
fn clean_id(id: &str) -> Option<String> {
    let id: String = id
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control() && *c != '<' && *c != '>')
        .collect();
    (!id.is_empty() && id.chars().count() <= MAX_ID_CHARS).then_some(id)
}

/// The cleaned ids of an In-Reply-To or References header: the last `MAX_IDS` of them.
fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    let ids: Vec<String> = match value {
        HeaderValue::Text(id) => clean_id(id).into_iter().collect(),
        HeaderValue::TextList(list) => list.iter().filter_map(|id| clean_id(id)).collect(),
        _ => Vec::new(),
    };
    let skip = ids.len().saturating_sub(MAX_IDS);
    ids.into_iter().skip(skip).collect()
}

/// A lowercased addr-spec: `None` unless it has one "@" with something on each side, and no white
/// space or control character, in at most 254 characters.
fn clean_address(address: &str) -> Option<String> {
    let address = address.trim().to_lowercase();
    let (local, domain) = address.split_once('@')?;
    let valid = !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && address.chars().count() <= 254
        && !address.chars().any(|c| c.is_whitespace() || c.is_control());
    valid.then_some(address)
}

/// The message's attachments, at most `MAX_ATTACHMENTS`, and how many more there were.
fn attachments(message: &Message<'_>) -> (Vec<MailAttachment>, usize) {
    let mut list = Vec::new();
    let mut left_out = 0;
    for part in message
        .attachments
        .iter()
        .filter_map(|&id| message.parts.get(id as usize))
    {
        let bytes: &[u8] = match &part.body {
            PartType::Text(text) | PartType::Html(text) => text.as_bytes(),
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => bytes,
            PartType::Message(nested) => nested_message_bytes(message, part, nested),
            PartType::Multipart(_) => continue,
        };
        if list.len() == MAX_ATTACHMENTS {
            left_out += 1;
            continue;
        }
        let content_type = content_type(part);
        let name = part
            .attachment_name()
            .and_then(clean_file_name)
            .unwrap_or_else(|| fallback_name(list.len() + 1, &content_type));
        list.push(MailAttachment {
            name,
            content_type,
            size: bytes.len() as u64,
            bytes: (bytes.len() <= MAX_ATTACHMENT_BYTES).then(|| bytes.to_vec()),
        });
    }
    (list, left_out)
}

/// The raw bytes of an attached mail. The parser keeps an unencoded one as the whole outer mail
/// with offsets into it, and a base64 or quoted-printable one as its decoded bytes.
fn nested_message_bytes<'a>(
    message: &'a Message<'_>,
    part: &MessagePart<'_>,
    nested: &'a Message<'_>,
) -> &'a [u8] {
    if part.encoding == Encoding::None {
        let range = part.offset_body as usize..part.offset_end as usize;
        if let Some(bytes) = message.raw_message.get(range).filter(|b| !b.is_empty()) {
            return bytes;
        }
    }
    &nested.raw_message
}

/// A part's lowercased `type/subtype`, from its Content-Type or, without one, from its kind.
fn content_type(part: &MessagePart<'_>) -> String {
    let declared = part.content_type().map(|ct| {
        let subtype = ct
            .subtype()
            .unwrap_or(if ct.ctype().eq_ignore_ascii_case("text") {
                "plain"
            } else {
                ""
            });
        (
            ct.ctype().trim().to_ascii_lowercase(),
            subtype.trim().to_ascii_lowercase(),
        )
    });
    match declared {
        Some((ctype, subtype)) if is_mime_token(&ctype) && is_mime_token(&subtype) => {
            format!("{ctype}/{subtype}")
        }
        Some(_) => "application/octet-stream".to_owned(),
        None => match part.body {
            PartType::Text(_) => "text/plain".to_owned(),
            PartType::Html(_) => "text/html".to_owned(),
            PartType::Message(_) => "message/rfc822".to_owned(),
            _ => "application/octet-stream".to_owned(),
        },
    }
}

/// Whether a MIME type or subtype is a non-empty RFC 6838 name of at most 127 characters.
fn is_mime_token(token: &str) -> bool {
    !token.is_empty()
        && token.len() <= 127
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
}

/// A file name fit for a Content-Disposition header: the last component of a path, without
/// control characters, bidirectional overrides or characters that a file system or the header
/// refuses, with no leading or trailing dots or spaces, at most `MAX_NAME_CHARS` characters (the
/// extension kept when a long name is cut). `None` when nothing is left.
fn clean_file_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut clean = String::with_capacity(base.len());
    for c in base.chars() {
        match c {
            '"' => clean.push('\''),
            ':' | '*' | '?' | '<' | '>' | '|' => clean.push('_'),
            c if c.is_whitespace() => clean.push(' '),
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {}
            '\u{feff}' => {}
            c if c.is_control() => {}
            c => clean.push(c),
        }
    }
    let clean = clean.trim_matches(['.', ' ']);
    if clean.is_empty() {
        return None;
    }
    if clean.chars().count() <= MAX_NAME_CHARS {
        return Some(clean.to_owned());
    }
    // Keeps a short extension and cuts the stem.
    let extension = clean
        .rfind('.')
        .map(|dot| &clean[dot..])
        .filter(|ext| ext.chars().count() <= 16)
        .unwrap_or("");
    let stem = &clean[..clean.len() - extension.len()];
    let keep = MAX_NAME_CHARS - extension.chars().count();
    let stem: String = stem.chars().take(keep).collect();
    let stem = stem.trim_end_matches(['.', ' ']);
    Some(format!("{stem}{extension}"))
}

/// "attachment-N", with the usual extension of a few common types.
fn fallback_name(n: usize, content_type: &str) -> String {
    let extension = match content_type {
        "image/png" => ".png",
        "image/jpeg" => ".jpg",
        "image/gif" => ".gif",
        "image/webp" => ".webp",
        "text/plain" => ".txt",
        "text/html" => ".html",
        "text/calendar" => ".ics",
        "application/pdf" => ".pdf",
        "message/rfc822" => ".eml",
        _ => "",
    };
    format!("attachment-{n}{extension}")
}

/// The most levels of quote markers or list indentation written: deeper ones are written as this
/// deep, so that deeply nested HTML cannot multiply the text's size.
const MAX_NESTING: usize = 16;

/// The most bytes of text an HTML conversion writes: beyond it the text is sure to be cut (four
/// bytes hold at least one character), so the conversion stops.
const MAX_HTML_TEXT_BYTES: usize = 4 * MAX_TEXT_CHARS + 4;

/// Elements whose content is never text to show.
const HIDDEN_ELEMENTS: &[&str] = &["script", "style", "title", "template", "xml", "head"];

/// Elements that end a paragraph: a blank line before and after them.
const PARAGRAPH_ELEMENTS: &[&str] = &[
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "hr", "dl", "figure", "form",
    "fieldset", "address",
];

/// Elements that start and end a line.
const LINE_ELEMENTS: &[&str] = &[
    "div", "li", "tr", "dt", "dd", "section", "article", "header", "footer", "main", "nav",
    "aside", "center", "caption", "body", "html",
];

/// Converts HTML to plain text for display: no markup, no script, style or head content; entities
/// decoded; white space collapsed as a browser does (but in `pre`); paragraphs, line breaks and
/// list items on their own lines ("- " or "1. " before an item); a block quote's lines prefixed
/// with "> "; a link's address written after its text as " <address>" when they differ.
pub(crate) fn html_to_text(html: &str) -> String {
    // ASCII lowercasing keeps every byte offset, so positions found in `lower` hold in `html`.
    let lower = html.to_ascii_lowercase();
    let mut w = TextWriter::default();
    let mut lists: Vec<Option<u32>> = Vec::new();
    let mut link: Option<(String, usize)> = None;
    let mut pre = 0usize;
    let mut i = 0;
    while i < html.len() && w.out.len() <= MAX_HTML_TEXT_BYTES {
        if !html[i..].starts_with('<') {
            let end = html[i..].find('<').map_or(html.len(), |p| i + p);
            w.text(&html[i..end], pre > 0);
            i = end;
            continue;
        }
        if lower[i..].starts_with("<!--") {
            i = lower[i + 4..]
                .find("-->")
                .map_or(html.len(), |p| i + 4 + p + 3);
            continue;
        }
        if lower[i..].starts_with("<!") || lower[i..].starts_with("<?") {
            i = lower[i..].find('>').map_or(html.len(), |p| i + p + 1);
            continue;
        }
        let Some(tag) = Tag::parse(html, &lower, i) else {
            w.text("<", pre > 0);
            i += 1;
            continue;
        };
        i = tag.end;
        let name = tag.name.as_str();
        if !tag.closing && HIDDEN_ELEMENTS.contains(&name) {
            if !tag.self_closing {
                let close = format!("</{name}");
                let closed = lower[i..]
                    .find(&close)
                    .and_then(|p| lower[i + p..].find('>').map(|q| i + p + q + 1));
                // A head left open ends where the body starts, as in a browser.
                let body = (name == "head")
                    .then(|| lower[i..].find("<body").map(|p| i + p))
                    .flatten();
                i = match (closed, body) {
                    (Some(closed), Some(body)) => closed.min(body),
                    (closed, body) => closed.or(body).unwrap_or(html.len()),
                };
            }
            continue;
        }
        match (name, tag.closing) {
            ("br", _) => w.line_break(),
            ("blockquote", false) => {
                w.block(2);
                w.quote += 1;
            }
            ("blockquote", true) => {
                w.block(2);
                w.quote = w.quote.saturating_sub(1);
            }
            ("ul" | "ol", closing) => {
                if closing {
                    lists.pop();
                }
                w.block(if lists.is_empty() { 2 } else { 1 });
                if !closing {
                    lists.push((name == "ol").then_some(0));
                }
            }
            ("li", false) => {
                w.block(1);
                let depth = lists.len().clamp(1, MAX_NESTING);
                let bullet = match lists.last_mut() {
                    Some(Some(n)) => {
                        *n = n.saturating_add(1);
                        format!("{n}. ")
                    }
                    _ => "- ".to_owned(),
                };
                w.marker(&format!("{}{bullet}", "  ".repeat(depth - 1)));
            }
            ("pre", closing) => {
                w.block(2);
                pre = if closing {
                    pre.saturating_sub(1)
                } else {
                    pre + 1
                };
                w.skip_newline = !closing;
            }
            ("td" | "th", false) => w.space(),
            ("a", false) => {
                link = tag.href.map(|href| (href, w.out.len()));
            }
            ("a", true) => {
                if let Some((href, start)) = link.take() {
                    let shown = w.out.get(start..).unwrap_or("").trim();
                    let address = href.strip_prefix("mailto:").unwrap_or(&href);
                    if !same_link(shown, address) {
                        w.space();
                        w.generated(&format!("<{address}>"));
                    }
                }
            }
            _ if PARAGRAPH_ELEMENTS.contains(&name) => w.block(2),
            _ if LINE_ELEMENTS.contains(&name) => w.block(1),
            _ => {}
        }
    }
    w.out
}

/// Whether a link's text already shows its address (ignoring case, a scheme and a final slash).
fn same_link(shown: &str, address: &str) -> bool {
    let bare = |s: &str| {
        let s = s.trim();
        let s = s
            .strip_prefix("https://")
            .or_else(|| s.strip_prefix("http://"))
            .or_else(|| s.strip_prefix("mailto:"))
            .unwrap_or(s);
        s.trim_end_matches('/').to_lowercase()
    };
    bare(shown) == bare(address)
}

/// An HTML tag as far as the text conversion needs it.
struct Tag {
    /// The lowercased element name.
    name: String,
    /// Whether it is an end tag (`</p>`).
    closing: bool,
    /// Whether it ends with `/>`.
    self_closing: bool,
    /// An `a` element's `href`, when it is an http, https or mailto address.
    href: Option<String>,
    /// The byte offset after the tag's `>`.
    end: usize,
}

impl Tag {
    /// Parses the tag at `start` (a `<`); `None` when no element name follows, so the `<` is text.
    fn parse(html: &str, lower: &str, start: usize) -> Option<Tag> {
        let bytes = lower.as_bytes();
        let mut i = start + 1;
        let closing = bytes.get(i) == Some(&b'/');
        if closing {
            i += 1;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let name_start = i;
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b':')
        {
            i += 1;
        }
        let name = lower[name_start..i].to_owned();
        let mut href = None;
        let mut self_closing = false;
        // Attributes: name, optional `= value` (quoted or not), up to the `>`.
        loop {
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match bytes.get(i) {
                None => {
                    return Some(Tag {
                        name,
                        closing,
                        self_closing,
                        href,
                        end: lower.len(),
                    })
                }
                Some(b'>') => {
                    return Some(Tag {
                        name,
                        closing,
                        self_closing,
                        href,
                        end: i + 1,
                    })
                }
                Some(b'/') => {
                    self_closing = bytes.get(i + 1) == Some(&b'>');
                    i += 1;
                    continue;
                }
                Some(_) => {}
            }
            let attr_start = i;
            while bytes
                .get(i)
                .is_some_and(|b| !b.is_ascii_whitespace() && !b"=>/".contains(b))
            {
                i += 1;
            }
            // A stray '/' or '=' without a name is skipped.
            if i == attr_start {
                i += 1;
                continue;
            }
            let attr = &lower[attr_start..i];
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if bytes.get(i) != Some(&b'=') {
                continue;
            }
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            let (value_start, value_end) = match bytes.get(i) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let value_start = i + 1;
                    let value_end = lower[value_start..]
                        .find(quote as char)
                        .map_or(lower.len(), |p| value_start + p);
                    i = (value_end + 1).min(lower.len());
                    (value_start, value_end)
                }
                _ => {
                    let value_start = i;
                    while bytes
                        .get(i)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        i += 1;
                    }
                    (value_start, i)
                }
            };
            if name == "a" && attr == "href" {
                href = link_address(&html[value_start..value_end]);
            }
        }
    }
}

/// A link's address when it is http, https or mailto: entities decoded, white space and control
/// characters removed.
fn link_address(value: &str) -> Option<String> {
    let mut decoded = String::with_capacity(value.len());
    decode_entities(value, &mut decoded);
    let address: String = decoded
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    let lower = address.to_ascii_lowercase();
    let allowed = ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme) && lower.len() > scheme.len());
    allowed.then_some(address)
}

/// Appends text to `out` with its character references (`&amp;`, `&#233;`, `&#xE9;`) decoded.
fn decode_entities(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match entity_len(rest) {
            Some(len) => {
                add_html_token(out, &rest.as_bytes()[..len], false);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// The length of a character reference at the start of `text` ("&" name or "#" number ";"), if
/// there is one: at most 40 ASCII letters or digits between the "&" and the ";".
fn entity_len(text: &str) -> Option<usize> {
    let body = text.as_bytes().get(1..)?;
    let len = body
        .iter()
        .take(41)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
        .count();
    (len > 0 && body.get(len) == Some(&b';')).then_some(len + 2)
}

/// Writes the plain text of an HTML document: collapses white space, and puts off line breaks
/// until the next text, so that nested blocks make one break and the text has no trailing ones.
#[derive(Default)]
struct TextWriter {
    out: String,
    /// Line breaks owed before the next text (2 makes a blank line).
    breaks: usize,
    /// Whether a space is owed before the next text on this line.
    space: bool,
    /// Whether a line was ended and the new one's quote prefix is not written yet.
    line_start: bool,
    /// Whether the current line has text since its start or its list marker.
    mid_line: bool,
    /// The current block quote depth.
    quote: usize,
    /// The quote depth of the last line written.
    last_quote: usize,
    /// Whether a newline right after `<pre>` is to be dropped, as browsers do.
    skip_newline: bool,
}

impl TextWriter {
    /// Owes at least `n` line breaks before the next text (none at the start of the text).
    fn block(&mut self, n: usize) {
        if !self.out.is_empty() {
            self.breaks = self.breaks.max(n);
        }
        self.space = false;
    }

    /// A `<br>`: one more line break, up to a blank line.
    fn line_break(&mut self) {
        if !self.out.is_empty() {
            self.breaks = (self.breaks + 1).min(2);
        }
        self.space = false;
    }

    /// Owes a space before the next text, unless at the start of a line.
    fn space(&mut self) {
        self.space = true;
    }

    /// Writes a list item's marker; white space after it is dropped as at the start of a line.
    fn marker(&mut self, marker: &str) {
        self.start_line();
        self.out.push_str(marker);
        self.space = false;
        self.mid_line = false;
    }

    /// Writes text that the conversion made (a link's address), after the space owed if any.
    fn generated(&mut self, text: &str) {
        let space = std::mem::take(&mut self.space);
        self.start_line();
        if space && self.mid_line {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.mid_line = true;
    }

    /// Writes HTML text; `pre` keeps its white space and line breaks.
    fn text(&mut self, text: &str, pre: bool) {
        let mut decoded = String::with_capacity(text.len());
        decode_entities(text, &mut decoded);
        // Control characters (and byte order marks) are dropped here already, so that the text's
        // length in bytes bounds its length in characters once cleaned.
        let visible =
            |c: &char| (!c.is_control() || matches!(c, '\n' | '\r' | '\t')) && *c != '\u{feff}';
        let chars = decoded.chars().map(|c| match c {
            '\u{b}' | '\u{c}' => ' ',
            c => c,
        });
        for c in chars.filter(visible) {
            if pre {
                match c {
                    '\r' => {}
                    '\n' => {
                        if !std::mem::take(&mut self.skip_newline) {
                            self.breaks += 1;
                        }
                    }
                    c => {
                        self.skip_newline = false;
                        self.start_line();
                        self.out.push(c);
                        self.mid_line = true;
                    }
                }
            } else if c.is_whitespace() {
                self.space = true;
            } else {
                let space = std::mem::take(&mut self.space);
                self.start_line();
                if space && self.mid_line {
                    self.out.push(' ');
                }
                self.out.push(c);
                self.mid_line = true;
            }
        }
    }

    /// Writes the line breaks owed and the new line's quote prefix, if not done yet.
    fn start_line(&mut self) {
        if self.breaks > 0 && !self.out.is_empty() {
            for n in 0..self.breaks {
                if n > 0 {
                    // A blank line inside a quote keeps its marker.
                    let depth = self.quote.min(self.last_quote).min(MAX_NESTING);
                    self.out.push_str(&">".repeat(depth));
                }
                self.out.push('\n');
            }
            self.line_start = true;
            self.mid_line = false;
        }
        self.breaks = 0;
        if self.line_start || self.out.is_empty() {
            self.out.push_str(&"> ".repeat(self.quote.min(MAX_NESTING)));
            self.last_quote = self.quote;
            self.line_start = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::fixtures::fixture;

    /// Reads a fixture that must be a mail.
    fn read(raw: &[u8]) -> ReadMail {
        match read_mail(raw) {
            Some(mail) => mail,
            None => panic!("not read as a mail"),
        }
    }

    /// Asserts that text has no control character but `\n` and `\t`, and no CR.
    fn assert_clean(text: &str) {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "control character in {text:?}"
        );
    }

    #[test]
    fn gmail_answer() {
        let mail = read(fixture!("gmail"));
        assert_eq!(
            mail.message_id.as_deref(),
            Some("CAJx7Qw1d3v5XYtR9cTq0pKsB2m8zHf4Lr6nG0aE1oVu@mail.gmail.com")
        );
        assert_eq!(mail.in_reply_to, ["reply-42.1796551200@adalovelace.dev"]);
        assert_eq!(
            mail.references,
            [
                "contact-42@adalovelace.dev",
                "reply-42.1796551200@adalovelace.dev"
            ]
        );
        assert_eq!(
            mail.from_address.as_deref(),
            Some("charles.babbage@gmail.com")
        );
        assert_eq!(mail.from_name.as_deref(), Some("Charles Babbage"));
        assert_eq!(
            mail.subject,
            "Re: Your message about the Analytical Engine – talk"
        );
        // Sun, 6 Dec 2026 11:42:07 +0100
        assert_eq!(mail.date, Some(1_796_553_727_000));
        assert!(!mail.from_html);
        assert!(!mail.cut);
        assert!(mail.attachments.is_empty());
        assert!(mail
            .text
            .starts_with("Dear Ada,\n\nThank you — Thursday at 3 pm"));
        assert!(mail.text.contains(
            "On Sun, Dec 6, 2026 at 10:00 AM Ada Lovelace <ada@adalovelace.dev>\nwrote:\n"
        ));
        assert!(mail.text.ends_with("> Ada\n>"));
        assert_clean(&mail.text);
    }

    #[test]
    fn outlook_answer_in_windows_1252() {
        let mail = read(fixture!("outlook"));
        assert_eq!(
            mail.from_address.as_deref(),
            Some("m.somerville@outlook.com")
        );
        assert_eq!(mail.from_name.as_deref(), Some("Mary Somerville"));
        assert_eq!(mail.subject, "RE: Your message – the lecture in Zürich");
        assert!(mail
            .text
            .starts_with("Hello Ada,\n\nThat’s wonderful news."));
        assert!(mail.text.contains("café"));
        assert!(mail
            .text
            .contains("\n________________________________\nFrom: Ada Lovelace"));
        assert!(!mail.from_html);
        assert_clean(&mail.text);
    }

    #[test]
    fn apple_mail_flowed_text_is_joined() {
        let mail = read(fixture!("apple"));
        assert!(mail.text.contains(
            "I will send the drawings over by the end of the week, together with my notes on the \
             mill and the store.\n"
        ));
        assert!(mail.text.contains(
            "> Thank you for writing. I would be glad to see the drawings of the engine before \
             the talk.\n>\n> Ada"
        ));
        assert_eq!(mail.in_reply_to, ["reply-7.1796551200@adalovelace.dev"]);
        assert_clean(&mail.text);
    }

    #[test]
    fn html_only_mail_becomes_plain_text() {
        let mail = read(fixture!("html_only"));
        assert!(mail.from_html);
        let text = &mail.text;
        for markup in [
            "<p", "<a ", "</", "<script", "<style", "&amp;", "&nbsp;", "&#",
        ] {
            assert!(!text.contains(markup), "{markup} left in {text:?}");
        }
        for hidden in [
            "alert",
            "tracker",
            "font-family",
            "color:",
            "Newsletter template",
        ] {
            assert!(!text.contains(hidden), "{hidden} left in {text:?}");
        }
        assert_eq!(
            text,
            "Hi Ada,\n\
             \n\
             Thanks for the quick answer & the links. Three things for the talk:\n\
             \n\
             - A projector <with HDMI>\n\
             - Two microphones\n\
             - Water for the speakers — please, not \"sparkling\"\n\
             \n\
             The programme is on our site <https://example.org/events/2026?talk=ada&lang=en>, \
             and you can write to me at grace@example.org.\n\
             \n\
             Best, Grace\n\
             \n\
             On Sun, 6 Dec 2026 at 10:00, Ada Lovelace <ada@adalovelace.dev> wrote:\n\
             \n\
             > Dear Grace, thank you for the invitation.\n\
             >\n\
             > Ada"
        );
        assert_clean(text);
    }

    #[test]
    fn attachments_are_listed_with_inline_images() {
        let mail = read(fixture!("attachments"));
        let listed: Vec<(&str, &str, u64)> = mail
            .attachments
            .iter()
            .map(|a| (a.name.as_str(), a.content_type.as_str(), a.size))
            .collect();
        assert_eq!(
            listed,
            [
                ("engine.png", "image/png", 70),
                ("notes.html", "text/html", 85),
                ("attachment-3.pdf", "application/pdf", 16),
            ]
        );
        let png = mail.attachments[0].bytes.as_deref().unwrap_or_default();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let html = mail.attachments[1].bytes.as_deref().unwrap_or_default();
        assert!(html.starts_with(b"<!DOCTYPE html>"));
        assert_eq!(mail.attachments_left_out, 0);
        // The text comes from the text/plain alternative, not from the HTML or the attachment.
        assert_eq!(
            mail.text,
            "Here are the drawings, and my notes as a page.\n\nCharles"
        );
        assert!(!mail.from_html);
    }

    #[test]
    fn german_answer() {
        let mail = read(fixture!("german"));
        assert_eq!(mail.subject, "AW: Ihre Nachricht über die Rechenmaschine");
        assert_eq!(mail.from_name.as_deref(), Some("Jürgen Müller"));
        assert!(mail
            .text
            .starts_with("Liebe Ada,\n\nvielen Dank für Ihre Antwort."));
        assert_clean(&mail.text);
    }

    #[test]
    fn malformed_mail_is_read_as_well_as_it_can_be() {
        let mail = read(fixture!("malformed"));
        assert_eq!(mail.message_id, None);
        assert_eq!(mail.date, None);
        assert_eq!(mail.from_address, None);
        assert_eq!(mail.subject, "Broken subject with a tab and newline");
        assert!(mail.text.contains("Text with a NUL and a bell"));
        assert_clean(&mail.text);
        assert!(!mail.text.contains('\r'));
    }

    #[test]
    fn not_a_mail() {
        assert_eq!(read_mail(b""), None);
        assert_eq!(read_mail(b"\n\n\n"), None);
        assert_eq!(read_mail(b"\x00\x01\x02\xff\xfe"), None);
        assert_eq!(read_mail(b"just some words, no headers\n"), None);
        assert_eq!(read_mail(b"X-Custom: only an unknown header\n\nbody"), None);
    }

    #[test]
    fn mail_without_body() {
        let mail = read(b"From: a@b.c\r\nSubject: hi\r\n\r\n");
        assert_eq!(mail.text, "");
        assert_eq!(mail.subject, "hi");
        assert_eq!(mail.from_address.as_deref(), Some("a@b.c"));
        assert!(!mail.from_html);
    }

    #[test]
    fn subject_is_one_line_and_bounded() {
        let long = "x".repeat(400);
        let raw = format!(
            "From: a@b.c\r\nSubject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?=\r\n  aus\tBerlin {long}\r\n\r\nhi"
        );
        let mail = read(raw.as_bytes());
        assert!(mail.subject.starts_with("Grüße aus Berlin xxx"));
        assert_eq!(mail.subject.chars().count(), 300);
    }

    #[test]
    fn text_is_cut_at_the_limit() {
        let body = "é".repeat(MAX_TEXT_CHARS + 10);
        let raw = format!(
            "From: a@b.c\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Transfer-Encoding: 8bit\r\n\r\n{body}"
        );
        let mail = read(raw.as_bytes());
        assert!(mail.cut);
        assert_eq!(mail.text.chars().count(), MAX_TEXT_CHARS);
    }

    #[test]
    fn crlf_and_controls_are_normalised() {
        let mail = read(
            b"From: a@b.c\r\n\r\n\r\n\r\nline\x00 one\r\nline\x07 two\rthree\t.\r\n\x1b[31m  \r\n",
        );
        assert_eq!(mail.text, "line one\nline two\nthree\t.\n[31m");
    }

    /// Builds a multipart/mixed mail with the given attachment parts (each a MIME part without its
    /// boundary line).
    fn mixed(parts: &[String]) -> Vec<u8> {
        let mut raw = String::from(
            "From: Charles <charles@example.org>\r\nSubject: files\r\nMIME-Version: 1.0\r\n\
             Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\n\
             Content-Type: text/plain\r\n\r\nSee the files.\r\n",
        );
        for part in parts {
            raw.push_str("--b1\r\n");
            raw.push_str(part);
        }
        raw.push_str("--b1--\r\n");
        raw.into_bytes()
    }

    #[test]
    fn attachment_over_the_size_limit_is_listed_without_bytes() {
        let line = "A".repeat(76);
        let lines = MAX_ATTACHMENT_BYTES / 78 + 2;
        let mut body = String::with_capacity(lines * 78);
        for _ in 0..lines {
            body.push_str(&line);
            body.push_str("\r\n");
        }
        let big = format!(
            "Content-Type: application/octet-stream\r\n\
             Content-Disposition: attachment; filename=\"big.bin\"\r\n\r\n{body}"
        );
        let small = "Content-Type: text/plain; name=\"small.txt\"\r\n\
                     Content-Disposition: attachment\r\n\r\nsmall\r\n"
            .to_owned();
        let mail = read(&mixed(&[big, small]));
        assert_eq!(mail.attachments.len(), 2);
        let big = &mail.attachments[0];
        assert_eq!(big.name, "big.bin");
        assert_eq!(big.content_type, "application/octet-stream");
        assert!(big.size > MAX_ATTACHMENT_BYTES as u64);
        assert_eq!(big.bytes, None);
        assert_eq!(mail.attachments[1].name, "small.txt");
        assert_eq!(mail.attachments[1].bytes.as_deref(), Some(&b"small"[..]));
        assert_eq!(mail.text, "See the files.");
    }

    #[test]
    fn attachments_past_the_limit_are_counted() {
        let parts: Vec<String> = (1..=25)
            .map(|n| {
                format!(
                    "Content-Type: application/pdf\r\n\
                     Content-Disposition: attachment; filename=\"f{n}.pdf\"\r\n\
                     Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n"
                )
            })
            .collect();
        let mail = read(&mixed(&parts));
        assert_eq!(mail.attachments.len(), MAX_ATTACHMENTS);
        assert_eq!(mail.attachments_left_out, 5);
        assert_eq!(mail.attachments[19].name, "f20.pdf");
        assert_eq!(
            mail.attachments[0].bytes.as_deref(),
            Some(&b"%PDF-1.4\n"[..])
        );
    }

    #[test]
    fn attached_mail_is_listed_as_eml() {
        let forwarded = "Content-Type: message/rfc822\r\n\r\n\
                         From: Ada <ada@adalovelace.dev>\r\nSubject: old\r\n\r\nThe old mail.\r\n"
            .to_owned();
        let mail = read(&mixed(&[forwarded]));
        assert_eq!(mail.attachments.len(), 1);
        let eml = &mail.attachments[0];
        assert_eq!(eml.name, "attachment-1.eml");
        assert_eq!(eml.content_type, "message/rfc822");
        let bytes = eml.bytes.as_deref().unwrap_or_default();
        assert!(
            bytes.starts_with(b"From: Ada"),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
        assert!(bytes.windows(12).any(|w| w == b"The old mail"));
        assert_eq!(mail.text, "See the files.");
    }

    #[test]
    fn file_names_are_made_safe() {
        assert_eq!(
            clean_file_name("../../etc/passwd").as_deref(),
            Some("passwd")
        );
        assert_eq!(
            clean_file_name("C:\\Users\\ada\\Desktop\\plan.pdf").as_deref(),
            Some("plan.pdf")
        );
        assert_eq!(
            clean_file_name("a\"b\r\nc\0d<e>.txt").as_deref(),
            Some("a'b  cd_e_.txt")
        );
        assert_eq!(
            clean_file_name("invoice\u{202e}fdp.exe").as_deref(),
            Some("invoicefdp.exe")
        );
        assert_eq!(clean_file_name(".."), None);
        assert_eq!(clean_file_name(" . "), None);
        assert_eq!(clean_file_name("/"), None);
        assert_eq!(clean_file_name(".hidden").as_deref(), Some("hidden"));
        let long = format!("{}.jpeg", "ü".repeat(300));
        let cut = clean_file_name(&long).unwrap_or_default();
        assert_eq!(cut.chars().count(), MAX_NAME_CHARS);
        assert!(cut.ends_with("ü.jpeg"));
        assert_eq!(fallback_name(3, "image/png"), "attachment-3.png");
        assert_eq!(fallback_name(4, "application/x-thing"), "attachment-4");
    }

    #[test]
    fn unnamed_and_oddly_typed_attachments() {
        let parts = [
            "Content-Type: image/PNG; x=\"y\"\r\nContent-Disposition: attachment\r\n\
             Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
                .to_owned(),
            "Content-Type: bad type/\"x\"\r\nContent-Disposition: attachment; \
             filename=\"../x.bin\"\r\n\r\nxyz\r\n"
                .to_owned(),
            "Content-Type: application/octet-stream\r\nContent-Disposition: attachment; \
             filename*=UTF-8''r%C3%A9sum%C3%A9.pdf\r\n\r\nxyz\r\n"
                .to_owned(),
        ];
        let mail = read(&mixed(&parts));
        let listed: Vec<(&str, &str)> = mail
            .attachments
            .iter()
            .map(|a| (a.name.as_str(), a.content_type.as_str()))
            .collect();
        assert_eq!(
            listed,
            [
                ("attachment-1.png", "image/png"),
                ("x.bin", "application/octet-stream"),
                ("résumé.pdf", "application/octet-stream"),
            ]
        );
    }

    #[test]
    fn ids_and_addresses_are_cleaned() {
        let raw = b"From: \"Ada L.\" <Ada@Example.ORG>\r\n\
                    Message-ID:   <abc.123@host>  \r\n\
                    In-Reply-To: <one@x> <two@y>\r\n\
                    References: <r1@x>\r\n <r2@x>\r\n\t<r3@x>\r\n\r\nhi";
        let mail = read(raw);
        assert_eq!(mail.message_id.as_deref(), Some("abc.123@host"));
        assert_eq!(mail.in_reply_to, ["one@x", "two@y"]);
        assert_eq!(mail.references, ["r1@x", "r2@x", "r3@x"]);
        assert_eq!(mail.from_address.as_deref(), Some("ada@example.org"));
        assert_eq!(mail.from_name.as_deref(), Some("Ada L."));

        let many: String = (0..150).map(|n| format!("<id{n}@x> ")).collect();
        let raw = format!("From: a@b.c\r\nReferences: {many}\r\n\r\nhi");
        let mail = read(raw.as_bytes());
        assert_eq!(mail.references.len(), MAX_IDS);
        assert_eq!(mail.references[0], "id50@x");

        let mail = read(b"From: not an address\r\nSubject: x\r\n\r\nhi");
        assert_eq!(mail.from_address, None);
    }

    #[test]
    fn html_conversion_details() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body>\
                    <h1>Title</h1><p>One&nbsp;two &lt;three&gt; &#233;&#xE9; &unknown; a&b</p>\
                    <div>line<br>break</div><div><br></div><div>after blank</div>\
                    <ol><li>first</li><li>second<ul><li>inner</li></ul></li></ol>\
                    <table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>\
                    <pre>  keep\n    this</pre>\
                    <p><a href=\"https://x.org/\">https://x.org</a> \
                    <a href=\"javascript:alert(1)\">js</a> <a href='mailto:a@b.c'>a@b.c</a> \
                    <a href=https://y.org/p?a=1&amp;b=2>here</a></p>\
                    <p>1 < 2 and <3 hearts</p><!-- a comment --><p title=\"a>b\">x</p>\
                    <blockquote><p>q1</p><blockquote>q2</blockquote></blockquote><p>end</p>";
        assert_eq!(
            html_to_text(html),
            "Title\n\nOne two <three> éé &unknown; a&b\n\nline\nbreak\n\nafter blank\n\n\
             1. first\n2. second\n  - inner\n\na b\nc d\n\n  keep\n    this\n\n\
             https://x.org js a@b.c here <https://y.org/p?a=1&b=2>\n\n1 < 2 and <3 hearts\n\n\
             x\n\n> q1\n>\n> > q2\n\nend"
        );
        assert_eq!(html_to_text("<script>never closed"), "");
        assert_eq!(html_to_text("<p unterminated"), "");
        assert_eq!(html_to_text("<head><meta x=1><body>Shown"), "Shown");
        assert_eq!(html_to_text("a\u{0}b&#0;c&#x1b;d\u{feff}e"), "abcde");
        assert_eq!(html_to_text("text <"), "text <");
    }

    #[test]
    fn html_nesting_and_size_are_bounded() {
        let deep = format!(
            "{}<ul>{}",
            "<blockquote>".repeat(1000),
            "<ul><li>x".repeat(1000)
        );
        let text = html_to_text(&deep);
        let widest = text.lines().map(str::len).max().unwrap_or(0);
        assert!(widest <= 4 * MAX_NESTING + 3, "{widest}");

        let many = "<blockquote>".repeat(100) + &"<br>x".repeat(MAX_TEXT_CHARS);
        let raw = format!("From: a@b.c\r\nContent-Type: text/html\r\n\r\n{many}");
        let mail = read(raw.as_bytes());
        assert!(mail.cut && mail.from_html);
        assert_eq!(mail.text.chars().count(), MAX_TEXT_CHARS);
    }

    #[test]
    fn flowed_text_decoding() {
        let flowed = "A long \nparagraph.\n> quoted \n> more\n>> deep\n-- \nsig\n";
        assert_eq!(
            unflow(flowed, false),
            "A long paragraph.\n> quoted more\n> > deep\n-- \nsig\n"
        );
        assert_eq!(unflow("split \nword\n", true), "splitword\n");
        assert_eq!(unflow(" stuffed\n", false), "stuffed\n");
        assert_eq!(
            unflow("soft \n> other depth\n", false),
            "soft \n> other depth\n"
        );
    }
}
