//! Reading JSON with the API's error contract: malformed JSON is a 400, and data that does not
//! fit names the field at fault. `ApiJson` reads request bodies with it, the content feature its
//! documents.

use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// Parses a JSON body, naming the field at fault when it is the data rather than the syntax.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let malformed = || ApiError::BadRequest {
        code: "malformed_json",
        message: "The request body is not valid JSON.".into(),
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut deserializer);
    if result.is_ok() && deserializer.end().is_err() {
        return Err(malformed());
    }
    // Every body the API takes is an object; serde would also fill a struct from an array, by
    // position (`[null, true]`), which no client means.
    if result.is_ok() && bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(ApiError::field("body", "must be a JSON object"));
    }
    result.map_err(|error| {
        let inner = error.inner();
        if inner.is_syntax() || inner.is_eof() || inner.is_io() {
            return malformed();
        }
        let text = inner.to_string();
        // serde's wording for an unknown key is "unknown field `x`, expected …".
        if let Some(rest) = text.strip_prefix("unknown field `") {
            let name = rest.split('`').next().unwrap_or_default();
            return ApiError::field(name, "is not a known field");
        }
        let path = error.path().to_string();
        let field = if path == "." { "body".to_owned() } else { path };
        let problem = text.split(" at line ").next().unwrap_or(&text).to_owned();
        if let Some(rest) = problem.strip_prefix("missing field `") {
            let name = rest.split('`').next().unwrap_or_default();
            return ApiError::field(name, "is required");
        }
        ApiError::field(&field, problem)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Form {
        name: String,
    }

    fn fields(error: ApiError) -> Vec<(String, String)> {
        match error {
            ApiError::Validation(fields) => fields.into_iter().collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn an_unknown_field_is_named() {
        let error = parse::<Form>(br#"{"name":"a","admin":true}"#).unwrap_err();
        assert_eq!(
            fields(error),
            [("admin".to_owned(), "is not a known field".to_owned())]
        );
    }

    #[test]
    fn a_missing_field_is_named() {
        let error = parse::<Form>(br#"{}"#).unwrap_err();
        assert_eq!(
            fields(error),
            [("name".to_owned(), "is required".to_owned())]
        );
    }

    #[test]
    fn a_wrong_type_names_the_field() {
        let error = parse::<Form>(br#"{"name": 5}"#).unwrap_err();
        assert_eq!(fields(error)[0].0, "name");
    }

    #[test]
    fn an_array_is_no_object_even_when_its_items_fit() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Change {
            read: Option<bool>,
        }
        let error = parse::<Change>(b" [true]").unwrap_err();
        assert_eq!(
            fields(error),
            [("body".to_owned(), "must be a JSON object".to_owned())]
        );
        assert!(parse::<Change>(br#"{"read": true}"#).is_ok());
    }

    #[test]
    fn broken_json_is_a_bad_request() {
        let error = parse::<Form>(br#"{"name": "#).unwrap_err();
        assert!(matches!(
            error,
            ApiError::BadRequest {
                code: "malformed_json",
                ..
            }
        ));
    }
}
