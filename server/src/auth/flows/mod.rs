//! The ways in, and the changes that guard them, as flows: signing in (the password, then the
//! second factor's code; a passkey), the password's change, re-authentication and reset, the
//! second factor's setup and recovery codes, and passkeys' ceremonies. Each takes what it needs
//! ([`Ctx`]: the store, the settings, the sign-in state, where notices go, the metrics to count)
//! and the request's cookies and address, and answers an outcome that the HTTP handler turns into
//! its response.

pub mod attempt;
pub mod context;
pub mod notify;
pub mod passkeys;
pub mod password;
pub mod second_factor;
pub mod sign_in;

pub use context::{Counters, Ctx, Outbox};
