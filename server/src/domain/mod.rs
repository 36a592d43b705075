//! Validated types: a value of one of these is known to be valid, so handlers and the store never re-check.
