//! Security notices' way out: every notice that tells the owner of a change to the account (the
//! second factor on or off, a passkey added or removed, the password changed, new recovery codes,
//! a sign-in from a new browser) carries a single-use link that signs every session out and
//! changes nothing else, valid for [`VALID_MS`]. An owner whose session was stolen ends it from
//! their mailbox, even when the thief has locked them out of the dashboard. The token travels in
//! the link's fragment (never sent to a server by a browser, so never in a log), only its
//! SHA-256 is stored, and the page it opens asks before it acts: a mail scanner that follows
//! links signs no one out.

use url::Url;

/// How long a notice's link works.
pub const VALID_MS: i64 = 24 * 60 * 60_000;

/// The address the notice carries: the public URL's `/login/sign-out`, the token in the fragment.
pub fn link(public_url: &Url, token: &str) -> String {
    let mut url = public_url.clone();
    url.set_query(None);
    url.set_fragment(None);
    let base = url.as_str().trim_end_matches('/');
    format!("{base}/login/sign-out#{token}")
}

/// The notice's text with its way out after it: the link when there is one, else what to do in
/// the dashboard.
pub fn with_way_out(body: &str, link: Option<&str>) -> String {
    match link {
        Some(link) => format!(
            "{body}\nIf it was not you, open this link to sign out every session of your dashboard \
             (it works once, for {hours} hours, and changes nothing else):\n\n{link}\n",
            hours = VALID_MS / 3_600_000,
        ),
        None => body.to_owned(),
    }
}

/// The lines that list the account's passkeys in a notice (the password notice names them: a
/// passkey added with a stolen session outlives a password change).
pub fn passkey_lines(names: &[String]) -> String {
    if names.is_empty() {
        return "No passkey can sign in to it.\n".to_owned();
    }
    let mut text = format!(
        "{} can still sign in to it without the password; remove any you do not know \
         (Account, Sign-in and security):\n",
        if names.len() == 1 {
            "This passkey".to_owned()
        } else {
            format!("These {} passkeys", names.len())
        }
    );
    for name in names {
        text.push_str("  - ");
        text.push_str(name);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_is_the_public_urls_sign_out_page_with_the_token_in_the_fragment() {
        let url: Url = "https://me.example.com:8443/?x=1#y".parse().unwrap();
        assert_eq!(
            link(&url, "abc"),
            "https://me.example.com:8443/login/sign-out#abc"
        );
        let text = with_way_out("Something changed.\n", Some("https://x/login/sign-out#abc"));
        assert!(
            text.contains("\n\nhttps://x/login/sign-out#abc\n"),
            "{text}"
        );
        assert!(text.contains("24 hours"), "{text}");
        assert_eq!(with_way_out("Body.\n", None), "Body.\n");
    }

    #[test]
    fn passkeys_are_listed_by_name() {
        assert!(passkey_lines(&[]).starts_with("No passkey"));
        let one = passkey_lines(&["Laptop".into()]);
        assert!(one.starts_with("This passkey") && one.contains("  - Laptop\n"));
        let two = passkey_lines(&["Laptop".into(), "Phone".into()]);
        assert!(two.starts_with("These 2 passkeys") && two.contains("  - Phone\n"));
    }
}
