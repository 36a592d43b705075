//! The steps that count for an application link inside a caller's transaction, written once for
//! both engines: a counted event's own transaction (`store::links`) and a message's
//! (`store::message`) take the same ones: the live link found and locked, its counts, the day's
//! seen-hashes, its last activity and its alerts queued in the outbox.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};
use crate::store::insights::{MAX_KEYS_PER_DAY, OTHER_KEY};
use crate::store::model::KIND_LINK;

/// What is counted per link and day (`application_link_counts.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CountKind {
    Open,
    Visitor,
    Section,
    /// A case study opened (key: its project's id).
    CaseStudy,
    /// A post read (key: its id).
    Post,
    Click,
    Resume,
    Message,
}

impl CountKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Visitor => "visitor",
            Self::Section => "section",
            Self::CaseStudy => "case-study",
            Self::Post => "post",
            Self::Click => "click",
            Self::Resume => "resume",
            Self::Message => "message",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::Open,
            Self::Visitor,
            Self::Section,
            Self::CaseStudy,
            Self::Post,
            Self::Click,
            Self::Resume,
            Self::Message,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// What a link's alert tells (`notification_outbox.link_event`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlertEvent {
    /// The link was opened for the first time.
    Open,
    /// The resume was downloaded through it (the first time that day).
    Resume,
    /// A message was sent during a visit through it.
    Message,
}

impl AlertEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Resume => "resume",
            Self::Message => "message",
        }
    }
}

row! {
    /// A live link as the transaction that counts for it finds it.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct LiveLink {
        pub id: i64,
        pub alert_open: bool,
        pub alert_resume: bool,
        pub alert_message: bool,
    }
}

/// The steps that count for a link inside a caller's transaction, written once for both engines:
/// the event's own transaction (`LinkStore::record_link_hit`) and a message's (`store::message`).
#[async_trait]
pub(crate) trait LinkSteps: Pools {
    /// The link with this slug if it is live at `now`, locked (on PostgreSQL) until the
    /// transaction ends, so that every count for it and its claims follow one another.
    async fn live_link(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        slug: &str,
        now: i64,
    ) -> anyhow::Result<Option<LiveLink>>;

    /// Adds `n` to a count and returns the count now; a key beyond the day's
    /// [`MAX_KEYS_PER_DAY`] of its kind is counted as [`OTHER_KEY`].
    async fn add_link_count(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        link_id: i64,
        day: &str,
        kind: CountKind,
        key: &str,
    ) -> anyhow::Result<i64>;

    /// Records a seen-hash for the day; whether it was new.
    async fn first_seen(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        day: &str,
        hash: &[u8],
    ) -> anyhow::Result<bool>;

    /// The link's last activity moved to `now` (never back).
    async fn touch_link(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        link_id: i64,
        now: i64,
    ) -> anyhow::Result<()>;

    /// Queues the link's alert on each channel.
    async fn queue_link_alert(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        link_id: i64,
        event: AlertEvent,
        channels: &[String],
        now: i64,
    ) -> anyhow::Result<()>;
}

both_engines! {
    impl LinkSteps {
        async fn live_link(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            slug: &str,
            now: i64,
        ) -> anyhow::Result<Option<LiveLink>> {
            sqlx::query_as(Self::dialect(
                "SELECT id, alert_open, alert_resume, alert_message FROM application_links \
                 WHERE slug = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)",
                "SELECT id, alert_open, alert_resume, alert_message FROM application_links \
                 WHERE slug = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) \
                 FOR NO KEY UPDATE",
            ))
            .bind(slug)
            .bind(now)
            .fetch_optional(&mut *connection)
            .await
            .context("Failed to look up an application link")
        }

        async fn add_link_count(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            link_id: i64,
            day: &str,
            kind: CountKind,
            key: &str,
        ) -> anyhow::Result<i64> {
            // A key already counted that day, or one of the first `MAX_KEYS_PER_DAY`, is counted
            // as itself; any other as `OTHER_KEY`. (`WHERE TRUE` lets SQLite read the upsert
            // after a SELECT.)
            sqlx::query_scalar(
                "INSERT INTO application_link_counts (link_id, day, kind, key, count) \
                 SELECT $1, $2, $3, CASE WHEN $4 = '' \
                   OR EXISTS (SELECT 1 FROM application_link_counts \
                              WHERE link_id = $1 AND day = $2 AND kind = $3 AND key = $4) \
                   OR (SELECT COUNT(*) FROM application_link_counts \
                       WHERE link_id = $1 AND day = $2 AND kind = $3 AND key <> $6) < $5 \
                   THEN $4 ELSE $6 END, 1 WHERE TRUE \
                 ON CONFLICT (link_id, day, kind, key) \
                 DO UPDATE SET count = application_link_counts.count + excluded.count \
                 RETURNING count",
            )
            .bind(link_id)
            .bind(day)
            .bind(kind.as_str())
            .bind(key)
            .bind(MAX_KEYS_PER_DAY)
            .bind(OTHER_KEY)
            .fetch_one(&mut *connection)
            .await
            .context("Failed to count for an application link")
        }

        async fn first_seen(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            day: &str,
            hash: &[u8],
        ) -> anyhow::Result<bool> {
            let added = sqlx::query(
                "INSERT INTO application_link_seen (day, visitor_hash) VALUES ($1, $2) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(day)
            .bind(hash)
            .execute(&mut *connection)
            .await
            .context("Failed to record a link's visitor")?
            .rows_affected();
            Ok(added > 0)
        }

        async fn touch_link(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            link_id: i64,
            now: i64,
        ) -> anyhow::Result<()> {
            sqlx::query(
                "UPDATE application_links SET last_activity_at = \
                 CASE WHEN last_activity_at IS NULL OR last_activity_at < $2 THEN $2 \
                      ELSE last_activity_at END \
                 WHERE id = $1",
            )
            .bind(link_id)
            .bind(now)
            .execute(&mut *connection)
            .await
            .context("Failed to record a link's activity")?;
            Ok(())
        }

        async fn queue_link_alert(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            link_id: i64,
            event: AlertEvent,
            channels: &[String],
            now: i64,
        ) -> anyhow::Result<()> {
            for channel in channels {
                sqlx::query(
                    "INSERT INTO notification_outbox \
                     (message_id, channel, kind, link_id, link_event, next_attempt_at, created_at) \
                     VALUES (NULL, $1, $2, $3, $4, $5, $5)",
                )
                .bind(channel)
                .bind(KIND_LINK)
                .bind(link_id)
                .bind(event.as_str())
                .bind(now)
                .execute(&mut *connection)
                .await
                .context("Failed to queue a link's alert")?;
            }
            Ok(())
        }
    }
}
