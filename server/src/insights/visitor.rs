//! Who may be counted, and as what: visitors who ask not to be tracked and bots are left out;
//! the rest are a device class and a browser family read from the User-Agent.

use axum::http::{header, HeaderMap};

/// `DNT: 1` or `Sec-GPC: 1`: the visitor asks not to be tracked.
pub fn opted_out(headers: &HeaderMap) -> bool {
    ["dnt", "sec-gpc"].iter().any(|name| {
        headers
            .get(*name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() == "1")
    })
}

/// A visitor that may be counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visitor<'h> {
    pub user_agent: &'h str,
    /// `phone`, `tablet`, `desktop` or `other`.
    pub device: &'static str,
    /// The browser's family (`Chrome`, `Firefox`, `Safari`, …) or `Other`.
    pub browser: String,
}

/// The bot patterns and the User-Agent parser.
type Parts = (isbot::Bots, woothee::parser::Parser);

/// Built on the first User-Agent it reads, and dropped again by [`Classifier::release`] when the
/// server is quiet: the bot patterns and the parser's tables take several megabytes that a server
/// no one is visiting does not need, and the bot regex's match caches grow with every new
/// User-Agent (up to 2 MB each, measured at about 1 MB after ten minutes of varied ones).
pub struct Classifier {
    parts: std::sync::Mutex<Option<std::sync::Arc<Parts>>>,
}

impl Default for Classifier {
    fn default() -> Self {
        Self::new()
    }
}

impl Classifier {
    pub fn new() -> Self {
        Self {
            parts: std::sync::Mutex::new(None),
        }
    }

    /// Drops the patterns, the parser and their caches; the next User-Agent builds them again.
    pub fn release(&self) {
        self.parts.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    fn parts(&self) -> std::sync::Arc<Parts> {
        let mut parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts
            .get_or_insert_with(|| {
                std::sync::Arc::new((isbot::Bots::default(), woothee::parser::Parser::new()))
            })
            .clone()
    }

    /// The visitor behind these headers, or `None` for a bot, a headless browser or a request
    /// without a User-Agent.
    pub fn classify<'h>(&self, headers: &'h HeaderMap) -> Option<Visitor<'h>> {
        let user_agent = headers.get(header::USER_AGENT)?.to_str().ok()?.trim();
        self.classify_user_agent(user_agent)
    }

    pub fn classify_user_agent<'h>(&self, user_agent: &'h str) -> Option<Visitor<'h>> {
        let parts = self.parts();
        let (bots, parser) = &*parts;
        if user_agent.is_empty()
            || user_agent.len() > 1024
            || user_agent.to_ascii_lowercase().contains("headless")
            || bots.is_bot(user_agent)
        {
            return None;
        }
        let parsed = parser.parse(user_agent)?;
        if parsed.category == "crawler" {
            return None;
        }
        let (device, browser) = (device_class(&parsed, user_agent), family(&parsed));
        Some(Visitor {
            user_agent,
            device,
            browser,
        })
    }
}

/// A device class: `phone`, `tablet`, `desktop` or `other`.
fn device_class(parsed: &woothee::parser::WootheeResult<'_>, user_agent: &str) -> &'static str {
    match parsed.category {
        "pc" => "desktop",
        "smartphone" | "mobilephone"
            if parsed.os == "iPad"
                || (parsed.os == "Android" && !user_agent.contains("Mobile")) =>
        {
            "tablet"
        }
        "smartphone" | "mobilephone" => "phone",
        _ => "other",
    }
}

/// A browser's family (`Chrome`, `Firefox`, `Safari`, …) or `Other`.
fn family(parsed: &woothee::parser::WootheeResult<'_>) -> String {
    match parsed.name {
        "" | "UNKNOWN" => "Other".to_owned(),
        name => name.chars().take(40).collect(),
    }
}

/// A browser's family and device class as the owner's session list shows them: read as a
/// visitor's are, but from any User-Agent (a headless browser's or a script's too), so `Other`
/// and `other` when nothing is known.
pub fn browser_and_device(user_agent: &str) -> (String, &'static str) {
    let user_agent = user_agent.trim();
    if user_agent.is_empty() || user_agent.len() > 1024 {
        return ("Other".to_owned(), "other");
    }
    match woothee::parser::Parser::new().parse(user_agent) {
        Some(parsed) => (family(&parsed), device_class(&parsed, user_agent)),
        None => ("Other".to_owned(), "other"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESKTOP_CHROME: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
    const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const IPAD: &str = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
    const FIREFOX: &str =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";

    #[test]
    fn a_released_classifier_is_built_again_on_the_next_user_agent() {
        let c = Classifier::new();
        assert!(c.classify_user_agent(DESKTOP_CHROME).is_some());
        c.release();
        assert!(c.parts.lock().unwrap().is_none(), "released");
        assert_eq!(c.classify_user_agent(FIREFOX).unwrap().browser, "Firefox");
        assert!(c
            .classify_user_agent("Googlebot/2.1 (+http://www.google.com/bot.html)")
            .is_none());
    }

    #[test]
    fn browsers_are_a_device_and_a_family() {
        let c = Classifier::new();
        let v = c.classify_user_agent(DESKTOP_CHROME).unwrap();
        assert_eq!((v.device, v.browser.as_str()), ("desktop", "Chrome"));
        let v = c.classify_user_agent(IPHONE).unwrap();
        assert_eq!((v.device, v.browser.as_str()), ("phone", "Safari"));
        assert_eq!(c.classify_user_agent(IPAD).unwrap().device, "tablet");
        assert_eq!(
            c.classify_user_agent(ANDROID_TABLET).unwrap().device,
            "tablet"
        );
        assert_eq!(c.classify_user_agent(FIREFOX).unwrap().browser, "Firefox");
    }

    #[test]
    fn a_session_names_any_browser() {
        assert_eq!(
            browser_and_device(DESKTOP_CHROME),
            ("Chrome".to_owned(), "desktop")
        );
        assert_eq!(browser_and_device(IPHONE), ("Safari".to_owned(), "phone"));
        assert_eq!(browser_and_device(""), ("Other".to_owned(), "other"));
        assert_eq!(browser_and_device("curl/8.5.0").1, "other");
    }

    #[test]
    fn bots_and_headless_browsers_are_not_visitors() {
        let c = Classifier::new();
        for ua in [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36",
            "curl/8.5.0",
            "python-requests/2.31.0",
            "",
        ] {
            assert!(c.classify_user_agent(ua).is_none(), "{ua}");
        }
    }

    /// What fetches a link pasted into a chat, a post or a mail, to show its preview: none of
    /// them is a visitor (an application link counts only the page's own beacon besides).
    const PREVIEW_FETCHERS: [&str; 12] = [
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "Slackbot 1.0 (+https://api.slack.com/robots)",
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "facebookexternalhit/1.1 Facebot Twitterbot/1.0",
        "Twitterbot/1.0",
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
        "WhatsApp/2.23.20.0 A",
        "TelegramBot (like TwitterBot)",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ];

    #[test]
    fn link_preview_fetchers_are_not_visitors() {
        let c = Classifier::new();
        for ua in PREVIEW_FETCHERS {
            assert!(c.classify_user_agent(ua).is_none(), "{ua}");
        }
    }

    #[test]
    fn do_not_track_and_gpc_opt_out() {
        let mut headers = HeaderMap::new();
        assert!(!opted_out(&headers));
        headers.insert("dnt", "0".parse().unwrap());
        assert!(!opted_out(&headers));
        headers.insert("sec-gpc", "1".parse().unwrap());
        assert!(opted_out(&headers));
    }
}
