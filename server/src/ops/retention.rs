//! Retention: what is deleted for good after its time, in `serve` every hour and by hand with
//! `portfolio messages purge`.

use std::time::Duration;

use crate::clock::Clock;
use crate::config::ops::RetentionSettings;
use crate::store::ops::{PurgePlan, PurgeReport};
use crate::store::Db;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// How often `serve` purges.
const EVERY: Duration = Duration::from_secs(60 * 60);

/// The plan at the retention clock's "now".
pub fn plan(settings: &RetentionSettings, clock: Clock) -> PurgePlan {
    let now = clock.now_ms();
    let cutoff = (settings.retention_days > 0)
        .then(|| now.saturating_sub(i64::from(settings.retention_days) * DAY_MS));
    PurgePlan {
        trash_before: cutoff,
        trap_spam_before: cutoff,
        sent_outbox_before: cutoff,
        now,
        sign_in_before: now.saturating_sub(crate::auth::throttle::FORGET_AFTER_MS),
    }
}

/// Purges once (or, with `dry_run`, counts what would go).
pub async fn purge(
    db: &Db,
    settings: &RetentionSettings,
    clock: Clock,
    dry_run: bool,
) -> anyhow::Result<PurgeReport> {
    db.purge(&plan(settings, clock), dry_run).await
}

/// Purges at start-up and every hour until aborted.
pub async fn run(db: Db, settings: RetentionSettings, clock: Clock) {
    loop {
        match purge(&db, &settings, clock, false).await {
            Ok(report) if report.total() > 0 => tracing::info!(%report, "retention purged"),
            Ok(_) => {}
            Err(error) => {
                tracing::error!(error = %format!("{error:#}"), "the retention purge failed");
            }
        }
        tokio::time::sleep(EVERY).await;
    }
}
