//! Waiting for the server to follow: on the event itself, with one deadline that a loaded
//! two-core machine meets.

use std::time::Duration;

/// How long a test waits for the server to do what it will do (send a mail, follow an import,
/// stop, say where it listens). A deadline, not a pace: a test that passes returns as soon as
/// the event comes, and only one that fails waits this long.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Calls `check` every 50 ms until it gives a value, at most [`PATIENCE`]; panics naming `what`
/// otherwise.
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Some(value) = check().await {
                return value;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("timed out waiting until {what}"))
}

/// `+` and `:` as a query string wants them.
pub fn url_escape(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}

/// A moment `seconds` from now, as RFC 3339 with an offset (`+01:00`), as the dashboard sends it.
pub fn from_now(seconds: i64) -> String {
    let moment = portfolio::clock::now() + chrono::Duration::seconds(seconds);
    moment
        .with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap())
        .to_rfc3339()
}
