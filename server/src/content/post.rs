//! A post ([`portfolio_content::post`]) as an entry of the content store: its key, and its
//! published versions read back.

pub use portfolio_content::post::*;

use std::sync::Arc;

use anyhow::Context;

/// The entry of post `id` in the content store.
pub fn key(id: &str) -> crate::store::content::EntryKey<'_> {
    crate::store::content::EntryKey {
        kind: KIND,
        entry: id,
    }
}

/// Reads the newest version due at `now` of every published post (but those unpublished); one
/// that cannot be read (stored behind the
/// API's back) is left out, with a warning.
pub async fn read_published(db: &crate::store::Db, now: i64) -> anyhow::Result<Posts> {
    let mut posts = Posts::new();
    for row in db.published_entries(KIND, now).await? {
        match serde_json::from_str::<Post>(&row.document) {
            // Unpublished: nothing shows it.
            Ok(document) if document.withdrawn => {}
            Ok(document) => {
                posts.insert(
                    row.entry,
                    Arc::new(PublishedPost {
                        version: row.version,
                        published_at: row.published_at,
                        document,
                    }),
                );
            }
            Err(error) => tracing::warn!(
                post = %row.entry,
                version = row.version,
                %error,
                "a published post cannot be read; it is left out"
            ),
        }
    }
    Ok(posts)
}

/// Post `id`'s newest published version, scheduled or not, if it has one.
pub async fn published(db: &crate::store::Db, id: &str) -> anyhow::Result<Option<Post>> {
    published_due(db, id, crate::store::content::EVERY_VERSION).await
}

/// Post `id`'s newest version due at `now` (published, or unpublished), if it has one.
pub async fn published_due(
    db: &crate::store::Db,
    id: &str,
    now: i64,
) -> anyhow::Result<Option<Post>> {
    match db.published_content(key(id), now).await? {
        Some(row) => Ok(Some(
            serde_json::from_str(&row.document)
                .with_context(|| format!("the published post {id:?} is not a post"))?,
        )),
        None => Ok(None),
    }
}
