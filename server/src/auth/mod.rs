//! Owner accounts: password hashing, sessions and sign-in throttling.
