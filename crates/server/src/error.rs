//! The one error type of the API and its JSON form `{"error": "...", "code": "..."}`.

use axum::Json;
use axum::extract::FromRequest;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Everything a request can fail with. Client errors carry a message for people; server
/// faults are logged and answered with a bare 500.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be read (JSON syntax, types, values, query).
    #[error("{0}")]
    BadRequest(String),
    /// No game with that id, or no such path.
    #[error("{0}")]
    NotFound(String),
    /// The other player (or the computer) must act.
    #[error("{0}")]
    NotYourTurn(String),
    /// The game is over.
    #[error("{0}")]
    GameOver(String),
    /// The opening waits for something else.
    #[error("{0}")]
    WrongPhase(String),
    /// The client's idea of the position is out of date.
    #[error("{0}")]
    Stale(String),
    /// There is nothing to take back.
    #[error("{0}")]
    NothingToUndo(String),
    /// The body is too large.
    #[error("{0}")]
    TooLarge(String),
    /// Missing or wrong content type.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Occupied, off the board, a wall.
    #[error("{0}")]
    IllegalMove(String),
    /// Renju: Black's forbidden point, refused by the game's policy.
    #[error("{0}")]
    Forbidden(String),
    /// A record that cannot be read or replayed.
    #[error("{0}")]
    BadRecord(String),
    /// The path exists, the method does not.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request needs a signed-in account, or its credentials are wrong.
    #[error("{0}")]
    Unauthorized(String),
    /// The request clashes with what exists (a username that is taken).
    #[error("{0}")]
    Conflict(String),
    /// The requester does not own the seat it acts for (a spectator, another player).
    #[error("{0}")]
    NotYours(String),
    /// Not allowed in a rated game (a takeback, a restart, the engine's help).
    #[error("{0}")]
    Rated(String),
    /// A request from another site (see [`crate::api::guard`]).
    #[error("{0}")]
    CrossSite(String),
    /// The client has too much in progress, or tried too often.
    #[error("{0}")]
    TooManyRequests(String),
    /// The engine queue is full.
    #[error("the engine is busy; try again in a moment")]
    Busy,
    /// A server fault; the message is logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The JSON body of an error answer.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    /// A sentence for people.
    pub error: String,
    /// A stable code for programs.
    pub code: &'static str,
}

impl Error {
    /// The HTTP status.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::NotYourTurn(_)
            | Error::GameOver(_)
            | Error::WrongPhase(_)
            | Error::Stale(_)
            | Error::NothingToUndo(_)
            | Error::Rated(_) => StatusCode::CONFLICT,
            Error::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Error::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::IllegalMove(_) | Error::Forbidden(_) | Error::BadRecord(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Error::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Error::CrossSite(_) | Error::NotYours(_) => StatusCode::FORBIDDEN,
            Error::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::Busy => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadRequest(_) | Error::UnsupportedMediaType(_) | Error::MethodNotAllowed(_) => {
                "bad_request"
            }
            Error::NotFound(_) => "not_found",
            Error::NotYourTurn(_) => "not_your_turn",
            Error::GameOver(_) => "game_over",
            Error::WrongPhase(_) => "wrong_phase",
            Error::Stale(_) => "stale",
            Error::NothingToUndo(_) => "nothing_to_undo",
            Error::TooLarge(_) => "too_large",
            Error::IllegalMove(_) => "illegal_move",
            Error::Forbidden(_) => "forbidden",
            Error::BadRecord(_) => "bad_record",
            Error::TooManyRequests(_) => "too_many_requests",
            Error::CrossSite(_) => "cross_site",
            Error::NotYours(_) => "not_yours",
            Error::Rated(_) => "rated_game",
            Error::Unauthorized(_) => "unauthorized",
            Error::Conflict(_) => "conflict",
            Error::Busy => "busy",
            Error::Internal(_) => "internal",
        }
    }

    /// The body sent to clients (server faults are not described).
    #[must_use]
    pub fn body(&self) -> ErrorBody {
        let error = match self {
            Error::Internal(_) => "internal server error".to_string(),
            other => other.to_string(),
        };
        ErrorBody {
            error,
            code: self.code(),
        }
    }

    /// A server fault from anything displayable.
    pub fn internal(e: impl std::fmt::Display) -> Error {
        Error::Internal(e.to_string())
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(msg) = &self {
            tracing::error!(error = %msg, "internal error");
        }
        (self.status(), Json(self.body())).into_response()
    }
}

impl From<JsonRejection> for Error {
    fn from(r: JsonRejection) -> Error {
        match r {
            JsonRejection::MissingJsonContentType(_) => Error::UnsupportedMediaType(
                "expected a JSON body with Content-Type: application/json".into(),
            ),
            JsonRejection::BytesRejection(b) if b.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Error::TooLarge("the request body is too large (at most 64 KiB)".into())
            }
            JsonRejection::JsonSyntaxError(e) => Error::BadRequest(format!(
                "cannot read the JSON body: {}",
                e.body_text()
                    .trim_start_matches("Failed to parse the request body as JSON: ")
            )),
            JsonRejection::JsonDataError(e) => Error::BadRequest(format!(
                "cannot read the JSON body: {}",
                e.body_text().trim_start_matches(
                    "Failed to deserialize the JSON body into the target type: "
                )
            )),
            other => Error::BadRequest(other.body_text()),
        }
    }
}

/// `Json<T>` whose rejections are our [`Error`]s.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
{
    type Rejection = Error;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Error> {
        Json::<T>::from_request(req, state)
            .await
            .map(|Json(v)| ApiJson(v))
            .map_err(Error::from)
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

/// A JSON body that may be absent: an empty body (with or without a content type) or
/// `null` reads as `T::default()`.
#[derive(Debug, Clone, Copy, Default)]
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    S: Send + Sync,
    T: serde::de::DeserializeOwned + Default,
{
    type Rejection = Error;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Error> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|r| {
                if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    Error::TooLarge("the request body is too large (at most 64 KiB)".into())
                } else {
                    Error::BadRequest(r.body_text())
                }
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        let bad = |e: &dyn std::fmt::Display| {
            Error::BadRequest(format!("cannot read the JSON body: {e}"))
        };
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let value =
            serde_path_to_error::deserialize::<_, Option<T>>(&mut de).map_err(|e| bad(&e))?;
        de.end().map_err(|e| bad(&e))?;
        Ok(OptionalJson(value.unwrap_or_default()))
    }
}
