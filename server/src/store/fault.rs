//! Which storage errors are the storage's own trouble (a full disk, an I/O error, a database
//! server gone away) rather than a bug or a bad row: those are answered `503` with `Retry-After`,
//! turn readiness off until a write works again, and are counted.

use std::borrow::Cow;

/// Whether `error` (anywhere in its chain) says the database cannot take writes for now.
pub fn is_storage_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(sqlx_unavailable)
    })
}

fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(database) => {
            let code = database.code().unwrap_or(Cow::Borrowed(""));
            if database
                .try_downcast_ref::<sqlx::sqlite::SqliteError>()
                .is_some()
            {
                sqlite_code_unavailable(&code)
            } else {
                postgres_state_unavailable(&code)
            }
        }
        _ => false,
    }
}

/// SQLite's primary result codes (the low byte of the extended code) that a full disk, a file
/// made read-only, moved or locked by another process, or an I/O error give.
fn sqlite_code_unavailable(code: &str) -> bool {
    const BUSY: i64 = 5;
    const LOCKED: i64 = 6;
    const NOMEM: i64 = 7;
    const READONLY: i64 = 8;
    const IOERR: i64 = 10;
    const FULL: i64 = 13;
    const CANTOPEN: i64 = 14;
    code.parse::<i64>().is_ok_and(|code| {
        matches!(
            code & 0xff,
            BUSY | LOCKED | NOMEM | READONLY | IOERR | FULL | CANTOPEN
        )
    })
}

/// PostgreSQL's SQLSTATE classes 53 (insufficient resources: disk full, out of memory, too many
/// connections) and 08 (connection exception), and the 57P0x states of a server shutting down.
fn postgres_state_unavailable(state: &str) -> bool {
    state.starts_with("53") || state.starts_with("08") || state.starts_with("57P0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_codes_of_a_full_or_failing_disk_are_unavailable() {
        // SQLITE_FULL, SQLITE_IOERR_WRITE (10 | 3 << 8), SQLITE_READONLY_DBMOVED (8 | 4 << 8)
        for code in ["13", "778", "1032", "5", "14"] {
            assert!(sqlite_code_unavailable(code), "{code}");
        }
        // SQLITE_CONSTRAINT_UNIQUE, SQLITE_ERROR, SQLITE_CORRUPT
        for code in ["2067", "1", "11", ""] {
            assert!(!sqlite_code_unavailable(code), "{code}");
        }
    }

    #[test]
    fn postgres_classes_53_and_08_are_unavailable() {
        for state in ["53100", "53300", "08006", "08001", "57P01"] {
            assert!(postgres_state_unavailable(state), "{state}");
        }
        for state in ["23505", "22001", "40001", "42P01"] {
            assert!(!postgres_state_unavailable(state), "{state}");
        }
    }

    #[test]
    fn a_lost_connection_anywhere_in_the_chain_is_unavailable() {
        let error = anyhow::Error::new(sqlx::Error::PoolTimedOut).context("Failed to store");
        assert!(is_storage_unavailable(&error));
        let error = anyhow::Error::new(sqlx::Error::RowNotFound).context("Failed to read");
        assert!(!is_storage_unavailable(&error));
        assert!(!is_storage_unavailable(&anyhow::anyhow!("a bug")));
    }
}
