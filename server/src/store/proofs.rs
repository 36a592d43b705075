//! What the transaction that stores a contact message writes besides it: the form token and the
//! proof-of-work challenge it used up (so none is accepted twice, on any instance), and the
//! owner's notice when the ceiling holds messages. Written once for both engines (SQLite reads the
//! `$1` placeholders too), generic over the connection, so SQLite's group commit and PostgreSQL's
//! transaction call the same code.

use anyhow::Context;
use sqlx::{Database, Encode, Executor, IntoArguments, Type};

use crate::domain::SpamReason;
use crate::store::model::{UsedProofs, KIND_CEILING};

/// Records the message's proofs as used, forgetting those that expired before `now`; the replay
/// found, if the token or the challenge was used before (on any instance sharing the database).
pub(crate) async fn use_up<DB>(
    connection: &mut DB::Connection,
    proofs: &UsedProofs<'_>,
    now: i64,
) -> anyhow::Result<Option<SpamReason>>
where
    DB: Database,
    for<'e> &'e mut DB::Connection: Executor<'e, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
{
    let mut replayed = None;
    let kinds = [
        (
            proofs.token,
            "DELETE FROM spam_used_tokens WHERE expires_at < $1",
            "INSERT INTO spam_used_tokens (nonce, expires_at) VALUES ($1, $2) \
             ON CONFLICT (nonce) DO NOTHING RETURNING 1",
            SpamReason::TokenReplayed,
        ),
        (
            proofs.challenge,
            "DELETE FROM spam_used_challenges WHERE expires_at < $1",
            "INSERT INTO spam_used_challenges (signature, expires_at) VALUES ($1, $2) \
             ON CONFLICT (signature) DO NOTHING RETURNING 1",
            SpamReason::ChallengeReplayed,
        ),
    ];
    for (proof, forget, remember, replay) in kinds {
        let Some((key, expires_at)) = proof else {
            continue;
        };
        sqlx::query(forget)
            .bind(now)
            .execute(&mut *connection)
            .await
            .context("Failed to forget expired proofs")?;
        // One statement: of two transactions inserting the same key at once, one wins (the
        // row comes back only to the one that inserted it).
        let fresh = sqlx::query(remember)
            .bind(key)
            .bind(expires_at)
            .fetch_optional(&mut *connection)
            .await
            .context("Failed to record a used proof")?
            .is_some();
        if !fresh && replayed.is_none() {
            replayed = Some(replay);
        }
    }
    Ok(replayed)
}

/// Queues the owner's notice that the ceiling held messages in Spam in clock hour `hour`, on
/// each of `channels`, unless one was queued for that hour already.
pub(crate) async fn queue_ceiling_notice<DB>(
    connection: &mut DB::Connection,
    hour: i64,
    channels: &[String],
    now: i64,
) -> anyhow::Result<()>
where
    DB: Database,
    for<'e> &'e mut DB::Connection: Executor<'e, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
{
    if channels.is_empty() {
        return Ok(());
    }
    let first = sqlx::query(
        "INSERT INTO spam_ceiling_hours (hour, created_at) VALUES ($1, $2) \
         ON CONFLICT (hour) DO NOTHING RETURNING 1",
    )
    .bind(hour)
    .bind(now)
    .fetch_optional(&mut *connection)
    .await
    .context("Failed to record the ceiling's hour")?
    .is_some();
    if !first {
        return Ok(());
    }
    for channel in channels {
        sqlx::query(
            "INSERT INTO notification_outbox (channel, kind, next_attempt_at, created_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(channel.as_str())
        .bind(KIND_CEILING)
        .bind(now)
        .bind(now)
        .execute(&mut *connection)
        .await
        .context("Failed to queue the ceiling's notice")?;
    }
    Ok(())
}
