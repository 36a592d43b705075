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

/// Built on the first User-Agent it reads: the bot patterns and the parser's tables take several
/// megabytes that a server no one has visited yet does not need.
pub struct Classifier {
    parts: std::sync::OnceLock<(isbot::Bots, woothee::parser::Parser)>,
}

impl Default for Classifier {
    fn default() -> Self {
        Self::new()
    }
}

impl Classifier {
    pub fn new() -> Self {
        Self {
            parts: std::sync::OnceLock::new(),
        }
    }

    /// The visitor behind these headers, or `None` for a bot, a headless browser or a request
    /// without a User-Agent.
    pub fn classify<'h>(&self, headers: &'h HeaderMap) -> Option<Visitor<'h>> {
        let user_agent = headers.get(header::USER_AGENT)?.to_str().ok()?.trim();
        self.classify_user_agent(user_agent)
    }

    pub fn classify_user_agent<'h>(&self, user_agent: &'h str) -> Option<Visitor<'h>> {
        let (bots, parser) = self
            .parts
            .get_or_init(|| (isbot::Bots::default(), woothee::parser::Parser::new()));
        if user_agent.is_empty()
            || user_agent.len() > 1024
            || user_agent.to_ascii_lowercase().contains("headless")
            || bots.is_bot(user_agent)
        {
            return None;
        }
        let parsed = parser.parse(user_agent)?;
        let device = match parsed.category {
            "crawler" => return None,
            "pc" => "desktop",
            "smartphone" | "mobilephone"
                if parsed.os == "iPad"
                    || (parsed.os == "Android" && !user_agent.contains("Mobile")) =>
            {
                "tablet"
            }
            "smartphone" | "mobilephone" => "phone",
            _ => "other",
        };
        let browser = match parsed.name {
            "" | "UNKNOWN" => "Other".to_owned(),
            name => name.chars().take(40).collect(),
        };
        Some(Visitor {
            user_agent,
            device,
            browser,
        })
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
