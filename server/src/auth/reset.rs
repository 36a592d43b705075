//! A way back in: a single-use link to set a new password, e-mailed to the owner. Its token
//! travels in the link's fragment (never sent to a server by a browser, so never in a log) and
//! is stored only as its SHA-256; the link is built from the configured public URL, never from a
//! request's Host header; it lasts [`VALID_MS`], at most one is sent per [`EVERY_MS`], and a new
//! one voids the old. The e-mail is sent the way security notices are, at once, and the link is
//! never stored.

use url::Url;

/// How long a link works.
pub const VALID_MS: i64 = 30 * 60_000;
/// At most one link is e-mailed this often.
pub const EVERY_MS: i64 = 5 * 60_000;

/// The address the e-mail carries: the public URL's `/login/reset`, the token in the fragment.
pub fn link(public_url: &Url, token: &str) -> String {
    let mut url = public_url.clone();
    url.set_query(None);
    url.set_fragment(None);
    let base = url.as_str().trim_end_matches('/');
    format!("{base}/login/reset#{token}")
}

pub const SUBJECT: &str = "Reset your portfolio's password";

/// The e-mail's text.
pub fn text(link: &str) -> String {
    format!(
        "Someone, hopefully you, asked to reset the password of your portfolio's dashboard.\n\n\
         To choose a new password, open this link within {minutes} minutes:\n\n{link}\n\n\
         The link works once, and a newer one replaces it. Setting the password signs out every \
         session; with a second factor on, the page asks for a code too.\n\n\
         If you did not ask for this, ignore this e-mail: your password stays as it is.\n",
        minutes = VALID_MS / 60_000,
    )
}

pub const DONE_SUBJECT: &str = "Your portfolio's password was reset";

/// The notice once the password is set, listing the passkeys that still sign in.
pub fn done_text(passkeys: &[String]) -> String {
    format!(
        "The password of your portfolio's dashboard was just reset with a link \
         e-mailed to this address, and every session was signed out.\n\n{}\n\
         If it was not you, set a new password on the server with `portfolio owner set`, and check \
         who can read this mailbox.\n",
        super::notice::passkey_lines(passkeys)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_is_the_public_urls_reset_page_with_the_token_in_the_fragment() {
        let url: Url = "https://me.example.com/".parse().unwrap();
        assert_eq!(link(&url, "abc"), "https://me.example.com/login/reset#abc");
        let url: Url = "https://me.example.com:8443/?x=1#y".parse().unwrap();
        assert_eq!(
            link(&url, "abc"),
            "https://me.example.com:8443/login/reset#abc"
        );
        assert!(text("https://me.example.com/login/reset#abc")
            .contains("\n\nhttps://me.example.com/login/reset#abc\n\n"));
    }
}
