//! Backups: `portfolio backup --output FILE` and the scheduled ones `serve` takes with
//! `--backup-dir`. Each is a SQLite database file that `serve --database-url sqlite://FILE` runs
//! as is, written under a temporary name and then renamed, so a backup on disk is always whole.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use rand::Rng;

use crate::store::Db;

/// The lease that lets one instance at a time take the scheduled backup.
const LEASE: &str = "scheduled-backup";
/// Scheduled backups are named `portfolio-<UTC time>.db`; rotation touches no other file.
const PREFIX: &str = "portfolio-";
const SUFFIX: &str = ".db";
/// How long an instance may hold the lease before another may take over (it died mid-backup).
const LEASE_MS: i64 = 60 * 60 * 1000;

/// Writes a snapshot of `db` to `output` through a temporary file beside it, then renames it.
pub async fn write(db: &Db, output: &Path) -> anyhow::Result<()> {
    let folder = match output.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = output
        .file_name()
        .context("output: name a file, not a folder")?
        .to_string_lossy()
        .into_owned();
    let temporary = folder.join(format!(
        ".{name}.{:08x}.partial",
        rand::thread_rng().gen::<u32>()
    ));
    let result = async {
        db.snapshot_into(&temporary).await?;
        sync_file(&temporary)?;
        std::fs::rename(&temporary, output).with_context(|| {
            format!("output: cannot rename the snapshot to {}", output.display())
        })?;
        sync_file(&folder)?;
        Ok(())
    }
    .await;
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Flushes a file (or a folder, after a rename) to disk.
fn sync_file(path: &Path) -> anyhow::Result<()> {
    std::fs::File::open(path)
        .and_then(|file| file.sync_all())
        .with_context(|| format!("cannot flush {} to disk", path.display()))
}

/// The scheduled backup job of one instance.
pub struct Schedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
}

impl Schedule {
    /// Takes a backup when one is due and no other instance is taking it; returns whether this
    /// instance took one.
    pub async fn run_once(&self, db: &Db, holder: &str) -> anyhow::Result<bool> {
        let now = crate::clock::now_ms();
        let every = i64::try_from(self.every.as_millis()).unwrap_or(i64::MAX);
        // A little slack so a backup taken at the previous tick counts as on time.
        let done_after = now.saturating_sub(every).saturating_add(500);
        if !db
            .take_lease(LEASE, holder, now, now.saturating_add(LEASE_MS), done_after)
            .await?
        {
            return Ok(false);
        }
        let result = self.take(db).await;
        let done_at = result.is_ok().then(crate::clock::now_ms);
        db.release_lease(LEASE, holder, done_at).await?;
        result.map(|()| true)
    }

    async fn take(&self, db: &Db) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("backup-dir: cannot create {}", self.dir.display()))?;
        let stamp = crate::clock::now().format("%Y%m%dT%H%M%S%.3fZ");
        let path = self.dir.join(format!("{PREFIX}{stamp}{SUFFIX}"));
        write(db, &path).await?;
        let removed = rotate(&self.dir, self.keep)?;
        tracing::info!(path = %path.display(), removed, "backup taken");
        Ok(())
    }
}

/// Deletes the oldest scheduled backups in `dir` beyond the newest `keep`; returns how many.
pub fn rotate(dir: &Path, keep: usize) -> anyhow::Result<usize> {
    let mut backups: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("backup-dir: cannot read {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
        })
        .collect();
    // The names hold the UTC time in a fixed width: sorting by name sorts by age.
    backups.sort();
    let excess = backups.len().saturating_sub(keep);
    for old in &backups[..excess] {
        std::fs::remove_file(old)
            .with_context(|| format!("backup-dir: cannot delete {}", old.display()))?;
    }
    Ok(excess)
}

/// When the last scheduled backup was taken by any instance.
pub async fn last_taken_at(db: &Db) -> anyhow::Result<Option<i64>> {
    db.lease_done_at(LEASE).await
}
