//! The error answers that several operations give alike, each group derived once with utoipa's
//! `IntoResponses` and named in an operation's `#[utoipa::path(responses(...))]` beside the
//! answers of its own, e.g. `responses((status = 200, body = Link), NoSession, CrossSite)`.
//! Each group's answers are written into every operation that names it, as the hand-written
//! tuples were: the document is the same. An answer one operation alone gives stays in its
//! attribute; no group may repeat a status an operation also writes by hand (the later would win).
//!
//! None of these types is ever built: they only describe. Every answer's body is [`ErrorBody`].

use utoipa::IntoResponses;

use crate::error::ErrorBody;

/// The owner's operations (the `Owner` extractor) without a valid session.
#[derive(IntoResponses)]
#[response(status = 401, description = "No valid session")]
pub struct NoSession(pub ErrorBody);

/// A request that changes something, sent from elsewhere than the site's own pages (the
/// same-origin check).
#[derive(IntoResponses)]
#[response(status = 403, description = "Not from the site's own pages")]
pub struct CrossSite(pub ErrorBody);

/// [`CrossSite`], for the operations that also want the password or a passkey again.
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "Not from the site's own pages, or the password or a passkey is needed again \
                   (reauthentication_required)"
)]
pub struct CrossSiteOrReauth(pub ErrorBody);

/// A JSON body under the API's usual limit.
#[derive(IntoResponses)]
pub enum JsonBody {
    #[response(status = 400, description = "Malformed JSON")]
    Malformed(ErrorBody),
    #[response(status = 413, description = "Body over 16 KB")]
    TooLarge(ErrorBody),
    #[response(status = 415, description = "Not JSON")]
    NotJson(ErrorBody),
}

/// A JSON body under the beacons' limit (insights' events, links' visits).
#[derive(IntoResponses)]
pub enum BeaconBody {
    #[response(status = 400, description = "Malformed JSON")]
    Malformed(ErrorBody),
    #[response(status = 413, description = "Body over 2 KB")]
    TooLarge(ErrorBody),
    #[response(status = 415, description = "Not JSON")]
    NotJson(ErrorBody),
}

/// A JSON body under the content draft's limit.
#[derive(IntoResponses)]
pub enum DraftBody {
    #[response(status = 400, description = "Malformed JSON")]
    Malformed(ErrorBody),
    #[response(status = 413, description = "Body over 256 KB")]
    TooLarge(ErrorBody),
    #[response(status = 415, description = "Not JSON")]
    NotJson(ErrorBody),
}

/// An uploaded file's bytes.
#[derive(IntoResponses)]
pub enum UploadBody {
    #[response(status = 400, description = "The body could not be read")]
    Unreadable(ErrorBody),
    #[response(status = 413, description = "Over --max-upload-bytes")]
    TooLarge(ErrorBody),
}

/// A JSON body's fields, each failing one named.
#[derive(IntoResponses)]
#[response(status = 422, description = "Fields not valid, each named")]
pub struct InvalidFields(pub ErrorBody);

/// A query's parameters.
#[derive(IntoResponses)]
#[response(status = 422, description = "A parameter is invalid")]
pub struct InvalidQuery(pub ErrorBody);

/// A whole-number id in the path (messages, links).
#[derive(IntoResponses)]
#[response(status = 422, description = "The id is not a whole number")]
pub struct IdNotWhole(pub ErrorBody);

/// A number id in the path (notifications).
#[derive(IntoResponses)]
#[response(status = 422, description = "The id is not a number")]
pub struct IdNotNumber(pub ErrorBody);

/// The message the path names.
#[derive(IntoResponses)]
#[response(status = 404, description = "No such message")]
pub struct NoSuchMessage(pub ErrorBody);

/// The link the path names.
#[derive(IntoResponses)]
#[response(status = 404, description = "No such link")]
pub struct NoSuchLink(pub ErrorBody);

/// The notification the path names.
#[derive(IntoResponses)]
#[response(status = 404, description = "No such notification")]
pub struct NoSuchNotification(pub ErrorBody);

/// The passkey the path names.
#[derive(IntoResponses)]
#[response(status = 404, description = "No such passkey")]
pub struct NoSuchPasskey(pub ErrorBody);

/// A passkey's name.
#[derive(IntoResponses)]
#[response(status = 422, description = "The name is empty or too long")]
pub struct InvalidPasskeyName(pub ErrorBody);

/// A passkey's answer to a ceremony begun to sign in or to confirm the owner again.
#[derive(IntoResponses)]
pub enum PasskeyAnswer {
    #[response(status = 409, description = "Passkeys are off")]
    Off(ErrorBody),
    #[response(
        status = 422,
        description = "The ceremony has expired or was used, or the credential is malformed"
    )]
    Malformed(ErrorBody),
}

/// The limit on wrong codes (second factor, recovery).
#[derive(IntoResponses)]
#[response(status = 429, description = "Too many wrong codes; see Retry-After")]
pub struct TooManyWrongCodes(pub ErrorBody);

/// The limit on wrong passwords of a signed-in owner.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "Too many wrong passwords; see Retry-After"
)]
pub struct TooManyWrongPasswords(pub ErrorBody);

/// The beacons' limit per network.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "Too many events from this network; see Retry-After"
)]
pub struct TooManyEvents(pub ErrorBody);

/// The password-hashing slots.
#[derive(IntoResponses)]
#[response(
    status = 503,
    description = "Every password-hashing slot is busy; see Retry-After"
)]
pub struct HashingBusy(pub ErrorBody);
