//! The settings' defaults, as their clap declarations give them.

use clap::Args;

/// The settings `T` declares, as clap gives them when nothing is said: each field's
/// `default_value` (or none, for an optional one) and its `#[arg(skip)]` value, and never the
/// environment. So a default is written once, in its `#[arg]`, for `portfolio serve` and for the
/// `Default`s the tests and [`super::Settings::for_database`] start from alike.
pub(super) fn clap_defaults<T: Args>() -> T {
    let command = T::augment_args(clap::Command::new("defaults"))
        .mut_args(|arg| arg.env(None::<&'static str>));
    let matches = command
        .try_get_matches_from(["defaults"])
        .expect("every setting has a default or is optional");
    T::from_arg_matches(&matches).expect("each default is a valid value")
}
