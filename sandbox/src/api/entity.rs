//! What every v1 entity handler shares: the [`Entity`] trait (one impl per stored entity:
//! its map in the [`World`], its ad account, lifecycle and rendering), lookups scoped to the
//! ad account with the reference's not-found and deleted errors, the recorded write helpers
//! (insert, modify, soft delete). The generic handlers over it live in [`super::crud`].

use std::collections::BTreeMap;

use serde_json::Value;
use time::Date;

use super::error::ApiError;
use super::fields;
use super::render;
use crate::world::{
    Ad, AdGroup, Campaign, Creative, Id, Keyword, Lifecycle, NegativeKeyword, World,
};

/// A stored entity owned by an ad account, soft-deleted, recorded in the change history.
pub trait Entity: Sized + Send + Sync + 'static {
    /// Its name in error messages ("ad group").
    const KIND: &'static str;
    /// Its change-history entity type ("AdGroup").
    const TYPE: &'static str;
    /// Its v1 path ("/adgroups").
    const PATH: &'static str;
    /// Fields its `…/query` filters and sorts on.
    const FIELDS: &'static [&'static str];
    /// How a delete of an already deleted one is worded after "{kind} {id} ".
    const DELETED_AGAIN: &'static str = "is deleted";
    fn all(w: &World) -> &BTreeMap<Id, Self>;
    fn all_mut(w: &mut World) -> &mut BTreeMap<Id, Self>;
    fn account(&self) -> Id;
    fn life(&self) -> &Lifecycle;
    fn life_mut(&mut self) -> &mut Lifecycle;
    fn set_id(&mut self, id: Id);
    /// The wire form.
    fn render(&self, w: &World) -> Value;
}

macro_rules! entity {
    ($t:ty, $map:ident, $path:literal, $kind:literal, $type:literal, $fields:path, $render:expr $(, $again:literal)?) => {
        impl Entity for $t {
            const PATH: &'static str = $path;
            const KIND: &'static str = $kind;
            const TYPE: &'static str = $type;
            const FIELDS: &'static [&'static str] = $fields;
            $(const DELETED_AGAIN: &'static str = $again;)?
            fn all(w: &World) -> &BTreeMap<Id, Self> {
                &w.$map
            }
            fn all_mut(w: &mut World) -> &mut BTreeMap<Id, Self> {
                &mut w.$map
            }
            fn account(&self) -> Id {
                self.ad_account_id
            }
            fn life(&self) -> &Lifecycle {
                &self.life
            }
            fn life_mut(&mut self) -> &mut Lifecycle {
                &mut self.life
            }
            fn set_id(&mut self, id: Id) {
                self.id = id;
            }
            fn render(&self, w: &World) -> Value {
                ($render)(w, self)
            }
        }
    };
}

entity!(
    Campaign,
    campaigns,
    "/campaigns",
    "campaign",
    "Campaign",
    fields::CAMPAIGNS,
    render::campaign,
    "is already deleted"
);
entity!(
    AdGroup,
    ad_groups,
    "/adgroups",
    "ad group",
    "AdGroup",
    fields::AD_GROUPS,
    render::ad_group,
    "is already deleted"
);
entity!(
    Keyword,
    keywords,
    "/keywords",
    "keyword",
    "Keyword",
    fields::KEYWORDS,
    render::keyword,
    "is already deleted"
);
entity!(
    NegativeKeyword,
    negative_keywords,
    "/negative-keywords",
    "negative keyword",
    "NegativeKeyword",
    fields::NEGATIVE_KEYWORDS,
    |_: &World, n: &NegativeKeyword| render::negative_keyword(n)
);
entity!(Ad, ads, "/ads", "ad", "Ad", fields::ADS, render::ad);
entity!(
    Creative,
    creatives,
    "/creatives",
    "creative",
    "Creative",
    fields::CREATIVES,
    |_: &World, c: &Creative| render::creative(c)
);

/// Entity `id` of ad account `account`, deleted or not.
pub fn find<E: Entity>(w: &World, account: Id, id: Id) -> Result<&E, ApiError> {
    E::all(w)
        .get(&id)
        .filter(|e| e.account() == account)
        .ok_or_else(|| ApiError::not_found(E::KIND, id))
}

/// Entity `id` of ad account `account`, refused with `ENTITY_DELETED` once deleted.
pub fn live<E: Entity>(w: &World, account: Id, id: Id) -> Result<&E, ApiError> {
    live_or(w, account, id, "is deleted")
}

/// Entity `id` that a delete may still delete.
pub fn deletable<E: Entity>(w: &World, account: Id, id: Id) -> Result<&E, ApiError> {
    live_or(w, account, id, E::DELETED_AGAIN)
}

fn live_or<'w, E: Entity>(
    w: &'w World,
    account: Id,
    id: Id,
    says: &str,
) -> Result<&'w E, ApiError> {
    let e = find::<E>(w, account, id)?;
    if e.life().deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "id",
            format!("{} {id} {says}", E::KIND),
        ));
    }
    Ok(e)
}

/// The parent entity a create names in `field`; an unknown id is an `INVALID_VALUE`.
pub fn parent<'w, E: Entity>(
    w: &'w World,
    account: Id,
    id: Id,
    field: &str,
) -> Result<&'w E, ApiError> {
    find(w, account, id).map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{} {id} not found", E::KIND),
        )
    })
}

/// [`parent`], also refusing a deleted one with `ENTITY_DELETED`.
pub fn live_parent<'w, E: Entity>(
    w: &'w World,
    account: Id,
    id: Id,
    field: &str,
) -> Result<&'w E, ApiError> {
    let e = parent::<E>(w, account, id, field)?;
    if e.life().deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            field,
            format!("the {} is deleted", E::KIND),
        ));
    }
    Ok(e)
}

/// Stores a new entity under `id` and records its creation; returns its wire form.
pub fn insert<E: Entity>(w: &mut World, id: Id, e: E) -> Value {
    E::all_mut(w).insert(id, e);
    w.index_entity(E::TYPE, id);
    w.touch(E::TYPE, id);
    let after = E::all(w)[&id].render(w);
    w.record(E::TYPE, None, &after);
    after
}

/// Changes entity `id` with `change` (given the day writes take effect from), stamps its
/// modification time and records the change; returns the new wire form.
pub fn modify<E: Entity>(w: &mut World, id: Id, change: impl FnOnce(&mut E, Date)) -> Value {
    let before = E::all(w)[&id].render(w);
    let from = w.effective_day(E::all(w)[&id].account());
    let now = w.now;
    w.touch(E::TYPE, id);
    let e = E::all_mut(w).get_mut(&id).expect("planned");
    change(e, from);
    e.life_mut().modified = now;
    let after = E::all(w)[&id].render(w);
    w.record(E::TYPE, Some(&before), &after);
    after
}

/// Soft-deletes entity `id` from the next day and records it; returns its wire form.
pub fn mark_deleted<E: Entity>(w: &mut World, id: Id) -> Value {
    modify::<E>(w, id, |e, from| e.life_mut().deleted_on = Some(from))
}
