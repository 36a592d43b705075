//! The engines' migrations (`server/migrations/<engine>/<version>_<description>.sql`), embedded in
//! the binary and handed to sqlx's migrator as `sqlx::migrate!` would: the same versions,
//! descriptions and checksums (the SHA-384 of each file), so databases migrated before read the
//! same. Not through the macro, whose crate built sqlx and tokio a second time for the build
//! host, about 45 s of a cold release build's CPU (issue 32).

use std::borrow::Cow;
use std::sync::OnceLock;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

use crate::embedded::Folder;

/// The migrations in `folder`, as one [`Migrator`] made once.
pub fn migrator(folder: &'static Folder, cell: &'static OnceLock<Migrator>) -> &'static Migrator {
    cell.get_or_init(|| {
        Migrator::new(Embedded(folder))
            .now_or_never()
            .expect("the embedded migrations are resolved at once")
            .expect("the embedded migrations are named <version>_<description>.sql")
    })
}

struct Embedded(&'static Folder);

impl std::fmt::Debug for Embedded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the embedded migrations")
    }
}

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        async move {
            let mut migrations = self
                .0
                .files()
                .map(|(name, sql)| parse(name, String::from_utf8(sql.to_vec())?))
                .collect::<Result<Vec<_>, BoxDynError>>()?;
            migrations.sort_by_key(|m| m.version);
            Ok(migrations)
        }
        .boxed()
    }
}

/// One file's migration, read as sqlx's own folder source reads it.
fn parse(name: &str, sql: String) -> Result<Migration, BoxDynError> {
    let (version, rest) = name
        .split_once('_')
        .ok_or_else(|| format!("migration {name}: expected <version>_<description>.sql"))?;
    let version: i64 = version
        .parse()
        .map_err(|_| format!("migration {name}: the version is not a number"))?;
    let kind = MigrationType::from_filename(rest);
    let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
    let no_tx = sql.starts_with("-- no-transaction");
    Ok(Migration::new(
        version,
        Cow::Owned(description),
        kind,
        Cow::Owned(sql),
        no_tx,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_read_as_sqlx_reads_them() {
        let m = parse(
            "20261201100001_ways_in.sql",
            "CREATE TABLE t (x INT);".into(),
        )
        .unwrap();
        assert_eq!(m.version, 20_261_201_100_001);
        assert_eq!(m.description, "ways in");
        assert_eq!(m.migration_type, MigrationType::Simple);
        assert!(!m.no_tx);
        assert!(parse("notes.sql", String::new()).is_err());
        assert!(parse("v1_first.sql", String::new()).is_err());
    }

    /// The same migrations, versions, descriptions and checksums as sqlx's reading of the folder
    /// (the tests may use its runtime reader), so that a database migrated by the macro goes on.
    #[tokio::test]
    async fn the_same_as_sqlx_reading_the_folders() {
        static SQLITE: OnceLock<Migrator> = OnceLock::new();
        static POSTGRES: OnceLock<Migrator> = OnceLock::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        for (embedded, folder) in [
            (
                migrator(&crate::embedded::SQLITE_MIGRATIONS, &SQLITE),
                "sqlite",
            ),
            (
                migrator(&crate::embedded::POSTGRES_MIGRATIONS, &POSTGRES),
                "postgres",
            ),
        ] {
            let read = Migrator::new(root.join(folder)).await.unwrap();
            let key = |m: &Migration| {
                (
                    m.version,
                    m.description.to_string(),
                    m.checksum.to_vec(),
                    m.no_tx,
                )
            };
            let embedded: Vec<_> = embedded.iter().map(key).collect();
            let read: Vec<_> = read.iter().map(key).collect();
            assert!(
                embedded.len() >= 11,
                "{folder}: {} migrations",
                embedded.len()
            );
            assert_eq!(embedded, read, "{folder}");
        }
    }
}
