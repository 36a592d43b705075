//! What a query written once needs from each engine: where reads and writes go, how a list is
//! bound, and which text to take where the SQL dialects differ; and [`both_engines!`], which
//! emits one body as the trait's impl for SQLite's store and PostgreSQL's (each engine's file
//! implements [`Pools`]).
//!
//! Both engines read `$1`, `$2`, ... (SQLite binds `$N` by its number), so one text serves both
//! and nothing is rewritten at run time. Each emitted impl is compiled for its own engine, so
//! `sqlx` checks every query's types against both.

use crate::config::database::Engine;

/// An engine's pools and dialect, as a query written once sees them.
pub(crate) trait Pools {
    type Db: sqlx::Database;
    /// A list bound as one parameter: a JSON array on SQLite (read with `json_each`), an array
    /// on PostgreSQL (read with `ANY`).
    type List<'a, T: 'a>;
    const ENGINE: Engine;

    /// Where reads go: SQLite's `query_only` readers, PostgreSQL's one pool.
    fn reader(&self) -> &sqlx::Pool<Self::Db>;

    /// Where writes go: SQLite's one writer connection, PostgreSQL's one pool.
    fn writer(&self) -> &sqlx::Pool<Self::Db>;

    fn list<T: serde::Serialize>(items: &[T]) -> Self::List<'_, T>;

    /// The engine's embedded migrations.
    fn migrator() -> &'static sqlx::migrate::Migrator;

    /// The text for this engine, where the two differ.
    fn dialect(sqlite: &'static str, postgres: &'static str) -> &'static str {
        match Self::ENGINE {
            Engine::Sqlite => sqlite,
            Engine::Postgres => postgres,
        }
    }
}

/// `both_engines! { impl Trait { shared items } }` implements `Trait` for both stores with the
/// same items (each with `#[async_trait]`); optional `sqlite { ... } postgres { ... }` sections
/// add the items that are each engine's own. The body reaches the database only through
/// [`Pools`], which must be in scope.
macro_rules! both_engines {
    (
        impl $trait:path { $($shared:tt)* }
        $(sqlite { $($sqlite:tt)* } postgres { $($postgres:tt)* })?
    ) => {
        #[async_trait::async_trait]
        impl $trait for $crate::store::sqlite::SqliteStore {
            $($shared)*
            $($($sqlite)*)?
        }

        #[async_trait::async_trait]
        impl $trait for $crate::store::postgres::PgStore {
            $($shared)*
            $($($postgres)*)?
        }
    };
}
pub(crate) use both_engines;

/// A query text whose condition `column IN list` (a list bound as `param` with
/// [`Pools::list`]) is written in each engine's dialect; the rest is the same text for both.
/// `in_list!("SELECT ... WHERE ", "channel", "$1", " ORDER BY id")`; used inside a
/// [`both_engines!`] body.
macro_rules! in_list {
    ($before:literal, $column:literal, $param:literal $(, $after:literal)?) => {
        <Self as $crate::store::engines::Pools>::dialect(
            concat!($before, $column, " IN (SELECT value FROM json_each(", $param, "))" $(, $after)?),
            concat!($before, $column, " = ANY(", $param, ")" $(, $after)?),
        )
    };
}
pub(crate) use in_list;
