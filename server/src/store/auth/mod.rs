//! What the owner's other ways in need from storage: the session list, pending sign-ins (a
//! password that waits for its code), the second factor and its recovery codes, passkeys, the
//! WebAuthn ceremonies finished, and password-reset links. Each single-use
//! thing is used up by one statement whose answer says whether this request was the one that
//! used it (`DELETE … RETURNING`, or an `UPDATE` that counts its rows), so that two requests on
//! two instances can never both use it.

mod passkeys;
mod resets;
mod second_factor;
mod sessions;
mod steps;

pub use passkeys::{PasskeyRow, PasskeyStore};
pub use resets::PasswordResetStore;
pub use second_factor::{SecondFactorRow, SecondFactorStore};
pub use sessions::{SessionListRow, SessionStore};

/// Everything the owner's ways in need from storage, one trait per part.
pub trait AuthStore: SessionStore + SecondFactorStore + PasskeyStore + PasswordResetStore {}

impl<T: SessionStore + SecondFactorStore + PasskeyStore + PasswordResetStore> AuthStore for T {}
