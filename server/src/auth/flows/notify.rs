//! The owner's security notices, each with its way out.

use super::context::Ctx;
use crate::auth::{notice, session};
use crate::error::ApiError;

/// A security notice to the owner, when e-mail is configured, with its way out: a single-use link
/// that signs every session out (when a public URL is set to build it from). The notice goes
/// even when the link could not be stored, without it.
pub async fn notify_owner(ctx: &Ctx<'_>, owner_id: i64, subject: &str, body: &str) {
    let Some(outbox) = ctx.outbox else {
        return;
    };
    let mut link = None;
    if let Some(public_url) = ctx.settings.public_url.as_ref() {
        let token = session::new_token();
        let now = ctx.now_ms();
        match ctx
            .db
            .insert_sign_out_link(
                &session::token_hash(&token),
                owner_id,
                now,
                now + notice::VALID_MS,
            )
            .await
        {
            Ok(()) => link = Some(notice::link(public_url, &token)),
            Err(error) => tracing::warn!(
                error = %format!("{error:#}"),
                "a security notice goes without its sign-out link"
            ),
        }
    }
    outbox.send_notice(subject, notice::with_way_out(body, link.as_deref()));
}

/// The names of the owner's passkeys, for the notices that list them.
pub async fn passkey_names(ctx: &Ctx<'_>, owner_id: i64) -> Result<Vec<String>, ApiError> {
    Ok(ctx
        .db
        .passkeys(owner_id)
        .await?
        .into_iter()
        .map(|row| row.name)
        .collect())
}
