//! The tests' mails.

/// The folder of the `.eml` fixtures that the tests read, relative to the crate's manifest. In the
/// server, whose manifest is in `server/`, this becomes `/tests/fixtures/mail/`.
macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/mail/",
            $name,
            ".eml"
        ))
    };
}

pub(crate) use fixture;
