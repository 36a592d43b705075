//! Storage: what the application needs from a database, said once in the [`Store`] trait, and one
//! module per engine that opens it ([`sqlite`], [`postgres`]). Each query is written once for both
//! engines (see `engines`), beside its trait ([`Store`]'s in `base`). The rest of
//! the server holds a [`Db`] (a shared `dyn Store`) and never names an engine; the URL alone
//! picks one.
//!
//! Every method is a small named query (or a few, in one transaction). Times are Unix
//! milliseconds, UTC, from the server's clock, stored as 64-bit integers on both engines.

/// Declares a struct read from a query's row, each field from the column of its name, on either
/// engine: what `#[derive(sqlx::FromRow)]` wrote, without sqlx's macros crate, which built sqlx
/// and tokio a second time for the build host (issue 32; see `migrations`).
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_meta:meta])* $field_vis:vis $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: $ty ),*
        }

        impl<'r, R: ::sqlx::Row> ::sqlx::FromRow<'r, R> for $name
        where
            &'static str: ::sqlx::ColumnIndex<R>,
            $( $ty: ::sqlx::Decode<'r, R::Database> + ::sqlx::Type<R::Database>, )*
        {
            fn from_row(row: &'r R) -> ::std::result::Result<Self, ::sqlx::Error> {
                Ok(Self {
                    $( $field: row.try_get(stringify!($field))?, )*
                })
            }
        }
    };
}

pub mod auth;
mod base;
pub mod content;
pub mod copy;
pub mod delivery;
pub mod digest;
mod dump;
mod engines;
pub mod fault;
pub mod follow_ups;
mod group_commit;
pub mod health;
pub mod inbox;
pub mod insights;
mod link_steps;
pub mod links;
pub mod media;
mod message;
pub mod migrations;
mod model;
pub mod ops;
pub mod postgres;
pub mod replies;
pub mod sealed;
pub mod spam;
pub mod sqlite;

pub use crate::config::database::{DatabaseUrl, Engine};
pub use auth::AuthStore;
pub use base::{connect, connect_tuned, start_probe, Db, Store};
pub use content::ContentStore;
pub use delivery::DeliveryStore;
pub use digest::DigestStore;
pub use dump::*;
pub use follow_ups::FollowUpStore;
pub use inbox::InboxStore;
pub use insights::InsightsStore;
pub use links::LinkStore;
pub use media::MediaStore;
pub use model::*;
pub use ops::OpsStore;
pub use replies::ReplyStore;
pub use sealed::SealStore;
