//! `portfolio db copy`: every row that matters from one store to another, either engine to
//! either, with ids kept and id counters continuing after them.

use anyhow::Context;

use super::base::connect;
use super::dump::Dump;
use crate::config::database::DatabaseUrl;

/// What a copy moved, table by table.
#[derive(Debug)]
pub struct CopyReport {
    pub counts: Vec<(&'static str, usize)>,
    /// The id of the key the copied secrets are sealed with (see `sealed`), if they are: the
    /// target opens them with that key file only.
    pub key_id: Option<String>,
}

/// Copies `from` into `to`. A target that holds data is refused unless `replace` is given, which
/// empties it first. The target is read back afterwards and must equal what was read.
pub async fn copy(from: &str, to: &str, replace: bool) -> anyhow::Result<CopyReport> {
    let from_url = DatabaseUrl::parse(from).map_err(|e| rename(e, "from"))?;
    let to_url = DatabaseUrl::parse(to).map_err(|e| rename(e, "to"))?;
    anyhow::ensure!(
        from_url != to_url,
        "to: it is the same database as --from ({to_url})"
    );
    let source = connect(from).await.map_err(|e| rename(e, "from"))?;
    let target = connect(to).await.map_err(|e| rename(e, "to"))?;
    let result = async {
        if !replace && !target.is_empty().await? {
            anyhow::bail!(
                "to: {to_url} already holds data; add --replace to empty it first (nothing was copied)"
            );
        }
        let dump: Dump = source.dump().await.context("Failed to read --from")?;
        target
            .load(&dump, replace)
            .await
            .context("Failed to write --to (nothing was changed there)")?;
        let written = target.dump().await.context("Failed to read --to back")?;
        anyhow::ensure!(
            written == dump,
            "the copy in --to differs from --from; check both databases"
        );
        Ok(CopyReport {
            counts: dump.counts().to_vec(),
            key_id: dump.secret_key.first().map(|row| row.key_id.clone()),
        })
    }
    .await;
    source.close().await;
    target.close().await;
    result
}

/// The stores name the setting `database-url`; here it is `--from` or `--to`.
fn rename(error: anyhow::Error, flag: &str) -> anyhow::Error {
    let text = format!("{error:#}");
    match text.strip_prefix("database-url: ") {
        Some(rest) => anyhow::anyhow!("{flag}: {rest}"),
        None => anyhow::anyhow!("{flag}: {text}"),
    }
}
