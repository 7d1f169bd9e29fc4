//! The HTTP API: one router per resource, merged by [`crate::app`].

pub mod accounts;
pub mod analysis;
pub mod chat;
pub mod games;
pub mod guard;
pub mod lobby;
pub mod meta;
pub mod profiles;
pub mod puzzles;
pub mod ratings;
pub mod review;
pub mod studies;
pub mod ws;

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// The address a request came from (the TCP peer), when the server knows it; requests
/// handed to the router directly (tests) have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}
