//! `/api/profiles/{identity}`: a player's statistics and history.
//!
//! Statistics count finished games against an opponent (the computer's levels and classic
//! AIs now, people later); games of two people at one screen are in the history but count
//! for nobody. A player's result is seen from their own colour.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};

use axum::http::header;
use axum::response::{IntoResponse, Response};
use wuzi_rules::record::Format;

use crate::error::{ApiJson, Error};
use crate::hub::Hub;
use crate::id::GameId;
use crate::identity::IdentityId;
use crate::identity::Requester;
use crate::live::LiveGame;
use crate::record;
use crate::store::{HistoryFilter, HistoryRow};

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/profiles/{identity}", get(profile))
        .route("/api/profiles/{identity}/games", get(games))
        .route("/api/profiles/{identity}/archive", get(archive))
}

/// Wins, losses and draws.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Finished games counted.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
    /// Wins over games (draws count half), 0 with no games.
    pub win_rate: f64,
}

impl Tally {
    fn add(&mut self, outcome: Outcome) {
        self.games += 1;
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
        self.win_rate =
            (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games);
    }
}

/// A player's statistics.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Every counted game.
    pub all: Tally,
    /// The longest run of wins in a row.
    pub longest_winning_streak: u32,
    /// Split by rule.
    pub by_rule: BTreeMap<String, Tally>,
    /// Split by opponent (`computer:level5`, ...).
    pub by_opponent: BTreeMap<String, Tally>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Loss,
    Draw,
}

/// The result of a history row for `who`: `None` while playing or when `who` held both
/// colours (a game at one screen).
fn outcome(row: &HistoryRow, who: &str) -> Option<Outcome> {
    let black = row.black_owner.as_deref() == Some(who);
    let white = row.white_owner.as_deref() == Some(who);
    if black == white {
        return None;
    }
    match row.winner.as_deref()? {
        "aborted" => None,
        "draw" => Some(Outcome::Draw),
        "black" if black => Some(Outcome::Win),
        "white" if white => Some(Outcome::Win),
        _ => Some(Outcome::Loss),
    }
}

/// Statistics from a player's games, newest first.
#[must_use]
pub fn stats(rows: &[HistoryRow], who: &str) -> Stats {
    let mut s = Stats::default();
    let mut streak = 0;
    for row in rows.iter().rev() {
        let Some(o) = outcome(row, who) else { continue };
        s.all.add(o);
        s.by_rule.entry(row.rule.clone()).or_default().add(o);
        s.by_opponent
            .entry(row.opponent.clone())
            .or_default()
            .add(o);
        streak = if o == Outcome::Win { streak + 1 } else { 0 };
        s.longest_winning_streak = s.longest_winning_streak.max(streak);
    }
    s
}

#[derive(Debug, Serialize)]
struct Profile {
    identity: String,
    kind: String,
    username: Option<String>,
    display_name: Option<String>,
    stats: Stats,
    /// Ratings in every pool played (see `GET /api/profiles/{id}/ratings/{pool}`).
    ratings: Vec<crate::store::RatingRow>,
}

pub(crate) fn parse_identity(id: &str) -> Result<IdentityId, Error> {
    id.parse().map_err(|_| {
        Error::NotFound(format!(
            "no player with id {:?}",
            id.chars().take(40).collect::<String>()
        ))
    })
}

/// Every game of a player (for statistics).
const ALL_GAMES: usize = 100_000;

async fn profile(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<ApiJson<Profile>, Error> {
    let who = parse_identity(&id)?;
    let kind = hub
        .store()
        .identity_kind(who.clone())
        .await?
        .ok_or_else(|| Error::NotFound(format!("no player with id {:?}", who.as_str())))?;
    let account = hub.store().account(who.clone()).await?;
    let rows = hub
        .store()
        .history(who.clone(), HistoryFilter::default(), ALL_GAMES)
        .await?;
    let ratings = hub.store().ratings(who.clone()).await?;
    Ok(ApiJson(Profile {
        ratings,
        stats: stats(&rows, who.as_str()),
        identity: who.to_string(),
        kind,
        username: account.as_ref().map(|a| a.username.clone()),
        display_name: account.map(|a| a.display_name),
    }))
}

/// `GET /api/profiles/{identity}/games` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    rule: Option<String>,
    opponent: Option<String>,
    /// `win`, `loss`, `draw` or `playing`.
    result: Option<String>,
    before: Option<i64>,
    limit: Option<usize>,
}

#[derive(Debug, Serialize)]
struct GameItem {
    id: String,
    rule: String,
    opponent: String,
    /// The player's colour (`null` when they held both).
    color: Option<&'static str>,
    /// `win`, `loss`, `draw`, `playing`, `aborted`, or `over` for a game at one screen.
    result: &'static str,
    reason: Option<String>,
    ply: i64,
    created_at: i64,
    updated_at: i64,
    rated: bool,
    /// The player's rating change (rated games that are over).
    rating_change: Option<f64>,
}

async fn games(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ApiJson<Vec<GameItem>>, Error> {
    let Query(q) = query.map_err(|e| Error::BadRequest(format!("query: {}", e.body_text())))?;
    let who = parse_identity(&id)?;
    if let Some(r) = &q.result
        && !["win", "loss", "draw", "playing"].contains(&r.as_str())
    {
        return Err(Error::BadRequest(
            "result: win, loss, draw or playing".into(),
        ));
    }
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    let filter = HistoryFilter {
        rule: q.rule.clone(),
        opponent: q.opponent.clone(),
        before: q.before,
    };
    // Filtering by result happens here: read more rows than asked for, within reason.
    let read = if q.result.is_some() { ALL_GAMES } else { limit };
    let rows = hub.store().history(who.clone(), filter, read).await?;
    let me = who.as_str();
    let items = rows
        .iter()
        .map(|row| {
            let color = match (
                row.black_owner.as_deref() == Some(me),
                row.white_owner.as_deref() == Some(me),
            ) {
                (true, false) => Some("black"),
                (false, true) => Some("white"),
                _ => None,
            };
            let result = match (outcome(row, me), row.winner.is_some()) {
                (Some(Outcome::Win), _) => "win",
                (Some(Outcome::Loss), _) => "loss",
                (Some(Outcome::Draw), _) => "draw",
                (None, true) if row.winner.as_deref() == Some("aborted") => "aborted",
                (None, true) => "over",
                (None, false) => "playing",
            };
            GameItem {
                id: row.id.clone(),
                rule: row.rule.clone(),
                opponent: row.opponent.clone(),
                color,
                result,
                reason: row.reason.clone(),
                ply: row.ply,
                created_at: row.created_at,
                updated_at: row.updated_at,
                rated: row.rated,
                rating_change: row.rating_change,
            }
        })
        .filter(|item| q.result.as_deref().is_none_or(|r| r == item.result))
        .take(limit)
        .collect();
    Ok(ApiJson(items))
}

/// `GET /api/profiles/{identity}/archive`: every game of the requester as one tar file,
/// each game as SGF and, where the format can hold it, PSQ. Only for the player's own
/// games (403 otherwise).
async fn archive(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(requester): Requester,
) -> Result<Response, Error> {
    let who = parse_identity(&id)?;
    if requester.as_ref() != Some(&who) {
        return Err(Error::NotYours(
            "only a player may download all their own games".into(),
        ));
    }
    let rows = hub
        .store()
        .history(who, HistoryFilter::default(), ALL_GAMES)
        .await?;
    let mut files = Vec::new();
    for row in rows {
        let Ok(game_id) = row.id.parse::<GameId>() else {
            continue;
        };
        let Some(stored) = hub.store().load(&game_id).await? else {
            continue;
        };
        let Ok(live) = LiveGame::from_stored(stored) else {
            continue;
        };
        for format in [Format::Sgf, Format::Psq] {
            if let Ok(text) = record::export(&live, format) {
                files.push((format!("wuzi-{}.{}", row.id, format.extension()), text));
            }
        }
    }
    let tar = tokio::task::spawn_blocking(move || {
        let mut builder = tar::Builder::new(Vec::new());
        for (name, text) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(text.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, name, text.as_bytes())?;
        }
        builder.into_inner()
    })
    .await
    .map_err(Error::internal)?
    .map_err(Error::internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-tar".to_string()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"wuzi-games.tar\"".to_string(),
            ),
        ],
        tar,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        black: Option<&str>,
        white: Option<&str>,
        winner: Option<&str>,
        rule: &str,
    ) -> HistoryRow {
        HistoryRow {
            id: "g".into(),
            rule: rule.into(),
            opponent: "computer:level1".into(),
            black_owner: black.map(Into::into),
            white_owner: white.map(Into::into),
            winner: winner.map(Into::into),
            reason: None,
            ply: 9,
            created_at: 0,
            updated_at: 0,
            rated: false,
            rating_change: None,
        }
    }

    #[test]
    fn statistics_count_from_the_players_colour() {
        // Newest first: W W L W W W (oldest) -> the longest streak is 3.
        let me = Some("me");
        let rows = [
            row(me, None, Some("black"), "renju"),
            row(None, me, Some("white"), "renju"),
            row(me, None, Some("white"), "freestyle"),
            row(me, None, Some("black"), "freestyle"),
            row(None, me, Some("white"), "freestyle"),
            row(me, None, Some("black"), "freestyle"),
            row(me, None, None, "freestyle"),
            row(me, me, Some("black"), "freestyle"),
            row(None, me, Some("draw"), "caro"),
        ];
        let s = stats(&rows, "me");
        assert_eq!(
            (s.all.games, s.all.wins, s.all.losses, s.all.draws),
            (7, 5, 1, 1)
        );
        assert_eq!(s.longest_winning_streak, 3);
        assert_eq!(s.by_rule["renju"].wins, 2);
        assert_eq!(s.by_rule["freestyle"].losses, 1);
        assert!((s.all.win_rate - 5.5 / 7.0).abs() < 1e-9);
        assert_eq!(s.by_opponent["computer:level1"].games, 7);
    }
}
