//! Analysis-board studies in the store: each person's tree of variations for a game (or
//! the free board), the page's JSON as it was saved.

use super::db::vals;
use super::{Store, StoreError};
use crate::identity::IdentityId;

impl Store {
    /// `who`'s study under `key` (a game's id, or `board`): the body and when it was
    /// saved (the page's clock, ms).
    pub async fn study(
        &self,
        who: IdentityId,
        key: String,
    ) -> Result<Option<(String, i64)>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                "SELECT body, saved_at FROM studies WHERE identity = $1 AND key = $2",
                &vals![who.as_str(), key.as_str()],
            )?
            .map(|r| Ok((r.get(0)?, r.get(1)?)))
            .transpose()
        })
        .await
    }

    /// Keeps `who`'s study under `key`, unless the one stored was saved later (another
    /// device's newer copy): returns whether it was stored.
    pub async fn save_study(
        &self,
        who: IdentityId,
        key: String,
        body: String,
        saved_at: i64,
    ) -> Result<bool, StoreError> {
        self.with(move |db| {
            Ok(db.execute(
                "INSERT INTO studies (identity, key, body, saved_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (identity, key) DO UPDATE
                   SET body = excluded.body, saved_at = excluded.saved_at
                   WHERE studies.saved_at <= excluded.saved_at",
                &vals![who.as_str(), key.as_str(), body.as_str(), saved_at],
            )? > 0)
        })
        .await
    }

    /// Forgets `who`'s study under `key`.
    pub async fn drop_study(&self, who: IdentityId, key: String) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "DELETE FROM studies WHERE identity = $1 AND key = $2",
                &vals![who.as_str(), key.as_str()],
            )?;
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_study_is_kept_per_person_and_an_older_copy_does_not_win() {
        let s = Store::open_in_memory().unwrap();
        let (a, b) = (IdentityId::random(), IdentityId::random());
        assert!(s.study(a.clone(), "board".into()).await.unwrap().is_none());
        assert!(
            s.save_study(a.clone(), "board".into(), "one".into(), 10)
                .await
                .unwrap()
        );
        assert!(
            s.save_study(a.clone(), "board".into(), "two".into(), 20)
                .await
                .unwrap()
        );
        assert!(
            !s.save_study(a.clone(), "board".into(), "old".into(), 15)
                .await
                .unwrap(),
            "an older copy from another device"
        );
        assert_eq!(
            s.study(a.clone(), "board".into()).await.unwrap(),
            Some(("two".to_string(), 20))
        );
        assert!(
            s.study(b.clone(), "board".into()).await.unwrap().is_none(),
            "a's only"
        );
        s.drop_study(a.clone(), "board".into()).await.unwrap();
        assert!(s.study(a, "board".into()).await.unwrap().is_none());
    }
}
