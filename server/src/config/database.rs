//! The `database-url` setting: which engine it names, and how to show it without its password.

use std::fmt;

use anyhow::bail;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Sqlite => "SQLite",
            Self::Postgres => "PostgreSQL",
        })
    }
}

/// A database URL whose engine is known from its scheme. Anything else is refused, so a URL
/// meant for a server is never taken for a file name.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl {
    engine: Engine,
    raw: String,
}

impl DatabaseUrl {
    pub fn parse(raw: &str) -> anyhow::Result<Self> {
        let raw = raw.trim();
        let scheme = raw
            .split_once(':')
            .map(|(scheme, _)| scheme.to_ascii_lowercase());
        let engine = match scheme.as_deref() {
            Some("sqlite") => Engine::Sqlite,
            Some("postgres" | "postgresql") => Engine::Postgres,
            _ => bail!(
                "database-url: {} is not a database URL: start it with sqlite:// (a file, e.g. sqlite://data/portfolio.db) \
                 or postgres:// (a server, e.g. postgres://user:password@host:5432/portfolio)",
                quoted(&redact(raw))
            ),
        };
        if engine == Engine::Postgres {
            let parsed = url::Url::parse(raw).map_err(|error| {
                anyhow::anyhow!(
                    "database-url: {} is not a valid PostgreSQL URL ({error})",
                    quoted(&redact(raw))
                )
            })?;
            let socket = parsed.query_pairs().any(|(key, _)| key == "host");
            if parsed.host_str().is_none_or(str::is_empty) && !socket {
                bail!(
                    "database-url: {} names no PostgreSQL server (e.g. postgres://user:password@host:5432/portfolio)",
                    quoted(&redact(raw))
                );
            }
        }
        Ok(Self {
            engine,
            raw: raw.to_owned(),
        })
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The URL as given, password included: only for the database driver.
    pub fn expose(&self) -> &str {
        &self.raw
    }

    /// The URL with any password replaced by `***`, for messages and logs.
    pub fn redacted(&self) -> String {
        redact(&self.raw)
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("DatabaseUrl")
            .field(&self.redacted())
            .finish()
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

fn quoted(text: &str) -> String {
    format!("{text:?}")
}

/// Hides the password of `scheme://user:password@host` and of a `password=` query parameter.
pub fn redact(raw: &str) -> String {
    let Ok(mut url) = url::Url::parse(raw) else {
        // Not a URL: hide whatever sits between the first `:` after `//` and the last `@`.
        return match (raw.find("://"), raw.rfind('@')) {
            (Some(start), Some(at)) if at > start => {
                let userinfo = &raw[start + 3..at];
                match userinfo.split_once(':') {
                    Some((user, _)) => format!("{}{user}:***{}", &raw[..start + 3], &raw[at..]),
                    None => raw.to_owned(),
                }
            }
            _ => raw.to_owned(),
        };
    };
    if url.password().is_some() {
        let _ = url.set_password(Some("***"));
    }
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| {
            let secret =
                k.eq_ignore_ascii_case("password") || k.eq_ignore_ascii_case("sslpassword");
            (
                k.into_owned(),
                if secret {
                    "***".to_owned()
                } else {
                    v.into_owned()
                },
            )
        })
        .collect();
    if !pairs.is_empty() {
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_picks_the_engine() {
        for (raw, engine) in [
            ("sqlite://data/portfolio.db", Engine::Sqlite),
            ("sqlite::memory:", Engine::Sqlite),
            ("postgres://u:p@db:5432/portfolio", Engine::Postgres),
            ("postgresql://db/portfolio", Engine::Postgres),
            ("POSTGRES://db/portfolio", Engine::Postgres),
        ] {
            assert_eq!(DatabaseUrl::parse(raw).unwrap().engine(), engine, "{raw}");
        }
    }

    #[test]
    fn anything_else_is_refused_naming_the_setting_without_the_password() {
        for raw in [
            "data/portfolio.db",
            "mysql://u:hunter2@db/x",
            "postgres:",
            "",
        ] {
            let error = DatabaseUrl::parse(raw).unwrap_err().to_string();
            assert!(error.starts_with("database-url: "), "{error}");
            assert!(!error.contains("hunter2"), "{error}");
        }
    }

    #[test]
    fn passwords_never_show() {
        let url = DatabaseUrl::parse("postgres://me:hunter2@db:5432/p?sslmode=require").unwrap();
        assert_eq!(
            url.redacted(),
            "postgres://me:***@db:5432/p?sslmode=require"
        );
        assert!(!format!("{url:?} {url}").contains("hunter2"));
        assert!(!redact("postgres://db/p?password=hunter2").contains("hunter2"));
        assert!(!redact("postgres://me:hun ter2@db/p").contains("hun ter2"));
    }
}
