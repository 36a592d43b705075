//! The weekly digest as it is sent: its subject, its e-mail's text and HTML parts (the same
//! table: this week, last week), and the webhooks' bodies. Referrers' hosts come from visitors:
//! escaped in HTML, and by the chat's own escaping in a chat's text.

use chrono::NaiveDate;

use super::figures::{Figures, Pair};
use crate::content::head::escape_html;

/// `2026-11-30` as "30 November 2026"; the text itself when it is no date.
fn day(text: &str) -> String {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_or_else(|_| text.to_owned(), |d| d.format("%-d %B %Y").to_string())
}

/// "30 November 2026 to 6 December 2026".
fn span(figures: &Figures) -> String {
    format!("{} to {}", day(&figures.from), day(&figures.to))
}

pub fn subject(figures: &Figures) -> String {
    format!("Your week: {}", span(figures))
}

/// The rows of the table: a label and its pair.
fn rows(figures: &Figures) -> [(&'static str, Pair); 6] {
    [
        ("Visitors", figures.visitors),
        ("Page views", figures.page_views),
        ("Messages", figures.messages),
        ("Links opened", figures.links_opened),
        ("Links engaged", figures.links_engaged),
        ("Follow-ups due", figures.follow_ups_due),
    ]
}

const CLOSING: &str = "Follow-ups due are in the dashboard's Applications view, each with a draft \
                       to send. You can change the digest's day and hour, or turn it off, there.";

/// The e-mail's text part.
pub fn text(figures: &Figures) -> String {
    let mut out = format!(
        "Your week, {} ({}).\n\n{:<16}{:>10}{:>11}\n",
        span(figures),
        figures.time_zone,
        "",
        "This week",
        "Last week"
    );
    for (label, pair) in rows(figures) {
        out.push_str(&format!("{label:<16}{:>10}{:>11}\n", pair.this, pair.last));
    }
    out.push_str("\nTop referrers\n");
    if figures.top_referrers.is_empty() {
        out.push_str("  none this week\n");
    }
    for referrer in &figures.top_referrers {
        out.push_str(&format!(
            "  {}: {} page views\n",
            referrer.host, referrer.views
        ));
    }
    if !figures.follow_ups.is_empty() {
        out.push_str("\nFollow-ups due\n");
        for link in &figures.follow_ups {
            out.push_str(&format!("  {}, {}\n", link.company, link.role));
        }
    }
    out.push('\n');
    out.push_str(CLOSING);
    out.push('\n');
    out
}

/// The e-mail's HTML part: the same, as a table (inline styles only: mail clients keep no
/// stylesheet).
pub fn html(figures: &Figures) -> String {
    let cell = "padding:4px 12px;text-align:right;border-bottom:1px solid #e5e7eb";
    let mut out = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body style=\"font-family:system-ui,sans-serif;color:#111827\">\
         <h1 style=\"font-size:20px\">Your week</h1><p>{span} ({zone})</p>\
         <table style=\"border-collapse:collapse\"><thead><tr><th scope=\"col\"></th>\
         <th scope=\"col\" style=\"{cell}\">This week</th><th scope=\"col\" style=\"{cell}\">Last week</th>\
         </tr></thead><tbody>",
        title = escape_html(&subject(figures)),
        span = escape_html(&span(figures)),
        zone = escape_html(&figures.time_zone),
    );
    for (label, pair) in rows(figures) {
        out.push_str(&format!(
            "<tr><th scope=\"row\" style=\"padding:4px 12px 4px 0;text-align:left;border-bottom:1px solid #e5e7eb\">{label}</th>\
             <td style=\"{cell}\">{}</td><td style=\"{cell}\">{}</td></tr>",
            pair.this, pair.last
        ));
    }
    out.push_str("</tbody></table><h2 style=\"font-size:16px\">Top referrers</h2>");
    if figures.top_referrers.is_empty() {
        out.push_str("<p>None this week.</p>");
    } else {
        out.push_str("<ul>");
        for referrer in &figures.top_referrers {
            out.push_str(&format!(
                "<li>{}: {} page views</li>",
                escape_html(&referrer.host),
                referrer.views
            ));
        }
        out.push_str("</ul>");
    }
    if !figures.follow_ups.is_empty() {
        out.push_str("<h2 style=\"font-size:16px\">Follow-ups due</h2><ul>");
        for link in &figures.follow_ups {
            out.push_str(&format!(
                "<li>{}, {}</li>",
                escape_html(&link.company),
                escape_html(&link.role)
            ));
        }
        out.push_str("</ul>");
    }
    out.push_str(&format!("<p>{}</p></body></html>", escape_html(CLOSING)));
    out
}

/// The generic webhook's JSON: the figures, typed.
pub fn webhook_json(figures: &Figures) -> serde_json::Value {
    let mut value = serde_json::to_value(figures).unwrap_or_default();
    if let Some(object) = value.as_object_mut() {
        object.insert("type".to_owned(), "weekly_digest".into());
    }
    value
}

/// A chat's text: the text part with the referrers' hosts escaped by `escape`.
pub fn chat_text(figures: &Figures, escape: fn(&str) -> String) -> String {
    let mut safe = figures.clone();
    for referrer in &mut safe.top_referrers {
        referrer.host = escape(&referrer.host);
    }
    for link in &mut safe.follow_ups {
        link.company = escape(&link.company);
        link.role = escape(&link.role);
    }
    text(&safe)
}

#[cfg(test)]
mod tests {
    use super::super::figures::{DueLink, Referrer};
    use super::*;

    fn figures() -> Figures {
        Figures {
            from: "2026-11-30".to_owned(),
            to: "2026-12-06".to_owned(),
            time_zone: "Europe/Berlin".to_owned(),
            visitors: Pair { this: 12, last: 8 },
            page_views: Pair { this: 40, last: 25 },
            messages: Pair { this: 2, last: 0 },
            links_opened: Pair { this: 3, last: 1 },
            links_engaged: Pair { this: 1, last: 0 },
            follow_ups_due: Pair { this: 1, last: 0 },
            top_referrers: vec![Referrer {
                host: "<b>evil</b>.example".to_owned(),
                views: 4,
            }],
            follow_ups: vec![DueLink {
                company: "Acme & Co".to_owned(),
                role: "Dev".to_owned(),
            }],
        }
    }

    #[test]
    fn both_parts_say_the_same_and_the_html_escapes_what_visitors_sent() {
        let figures = figures();
        assert_eq!(
            subject(&figures),
            "Your week: 30 November 2026 to 6 December 2026"
        );
        let text = text(&figures);
        assert!(
            text.contains("Visitors                12          8\n"),
            "{text}"
        );
        assert!(
            text.contains("Follow-ups due           1          0\n"),
            "{text}"
        );
        assert!(
            text.contains("  <b>evil</b>.example: 4 page views\n"),
            "{text}"
        );
        let html = html(&figures);
        assert!(html.contains("<th scope=\"row\""));
        assert!(html.contains("&lt;b&gt;evil&lt;/b&gt;.example: 4 page views"));
        assert!(!html.contains("<b>evil"));
        assert!(
            text.contains("Follow-ups due\n  Acme & Co, Dev\n"),
            "{text}"
        );
        assert!(html.contains("<li>Acme &amp; Co, Dev</li>"));
        let json = webhook_json(&figures);
        assert_eq!(json["type"], "weekly_digest");
        assert_eq!(json["visitors"]["this"], 12);
        assert_eq!(json["topReferrers"][0]["views"], 4);
        assert_eq!(json["timeZone"], "Europe/Berlin");
        assert_eq!(json["followUps"][0]["company"], "Acme & Co");
    }
}
