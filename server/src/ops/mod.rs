//! Running the server for years: backups, retention and metrics (their settings are in config/).

pub mod backup;
pub mod memory;
pub mod metrics;
pub mod retention;

use std::time::Duration;

use crate::config::ops::OpsSettings;
use crate::store::Db;

/// The background jobs of `serve`.
pub struct Background {
    /// Retention: stopped at once (each purge is one transaction).
    retention: tokio::task::JoinHandle<()>,
    /// Scheduled backups: a backup under way is finished.
    backups: Option<tokio::task::JoinHandle<()>>,
}

/// How long shutdown waits for a backup under way.
const BACKUP_GRACE: Duration = Duration::from_secs(60);

/// Starts retention, and scheduled backups when a folder is set; the backups stop taking new
/// ones when `stop` completes.
pub fn start(
    db: &Db,
    ops: &OpsSettings,
    clock: crate::clock::Clock,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Background {
    let retention = tokio::spawn(retention::run(db.clone(), ops.retention.clone(), clock));
    let backups = ops.backup_dir.as_ref().map(|dir| {
        let schedule = backup::Schedule {
            dir: dir.clone(),
            every: ops.backup_every,
            keep: usize::try_from(ops.backup_keep).unwrap_or(usize::MAX),
        };
        tokio::spawn(run_backups(db.clone(), schedule, stop))
    });
    Background { retention, backups }
}

/// Runs the backup schedule until `stop` completes: checks every so often whether a backup is
/// due, and counts each one taken or failed. A backup under way when `stop` completes is
/// finished first.
async fn run_backups(
    db: Db,
    schedule: backup::Schedule,
    stop: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(stop);
    let holder = format!("{:016x}", rand::random::<u64>());
    let tick = schedule.every.min(Duration::from_secs(60)) / 2;
    tracing::info!(
        dir = %schedule.dir.display(),
        every = %humantime::format_duration(schedule.every),
        keep = schedule.keep,
        "scheduled backups on"
    );
    loop {
        match schedule.run_once(&db, &holder).await {
            Ok(true) => metrics::backup_taken(),
            Ok(false) => {}
            Err(error) => {
                metrics::backup_failed();
                tracing::error!(error = %format!("{error:#}"), "the scheduled backup failed");
            }
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(tick.max(Duration::from_millis(200))) => {}
        }
    }
}

impl Background {
    /// Stops the jobs (after `stop` has completed), letting a backup under way finish.
    pub async fn finish(self) {
        self.retention.abort();
        if let Some(mut backups) = self.backups {
            if tokio::time::timeout(BACKUP_GRACE, &mut backups)
                .await
                .is_err()
            {
                tracing::warn!("a backup was still running at shutdown; it was stopped");
                backups.abort();
            }
        }
    }
}
