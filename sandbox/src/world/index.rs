//! Entities by parent (ad account, campaign, ad group), kept in id order, so scoped
//! queries and reports touch only the entities in scope. Entities are never removed
//! (deletes are soft) and never change parent, so the index only grows.

use std::collections::HashMap;

use super::{Id, World};

/// Child ids by `(entity type, parent id)`; one id counter serves all kinds, so a parent id
/// names one parent.
#[derive(Debug, Clone, Default)]
pub struct Index {
    children: HashMap<(&'static str, Id), Vec<Id>>,
}

impl Index {
    /// Records entity `id` of `kind` under each of `parents`.
    pub fn add(&mut self, kind: &'static str, parents: &[Id], id: Id) {
        for parent in parents {
            let ids = self.children.entry((kind, *parent)).or_default();
            if let Err(at) = ids.binary_search(&id) {
                ids.insert(at, id);
            }
        }
    }

    /// Ids of the `kind` entities under `parent`, ascending.
    pub fn children(&self, kind: &'static str, parent: Id) -> &[Id] {
        self.children
            .get(&(kind, parent))
            .map_or(&[], Vec::as_slice)
    }
}

impl World {
    /// The parents entity `id` of `kind` is indexed under.
    pub fn parents_of(&self, kind: &'static str, id: Id) -> Vec<Id> {
        let found = match kind {
            "Campaign" => self.campaigns.get(&id).map(|c| vec![c.ad_account_id]),
            "AdGroup" => self
                .ad_groups
                .get(&id)
                .map(|g| vec![g.ad_account_id, g.campaign_id]),
            "Keyword" => self
                .keywords
                .get(&id)
                .map(|k| vec![k.ad_account_id, k.campaign_id, k.ad_group_id]),
            "NegativeKeyword" => self.negative_keywords.get(&id).map(|n| {
                let mut p = vec![n.ad_account_id, n.campaign_id];
                p.extend(n.ad_group_id);
                p
            }),
            "Ad" => self
                .ads
                .get(&id)
                .map(|a| vec![a.ad_account_id, a.campaign_id, a.ad_group_id]),
            "Creative" => self.creatives.get(&id).map(|c| vec![c.ad_account_id]),
            _ => None,
        };
        found.unwrap_or_default()
    }

    /// Indexes entity `id` of `kind` (after it was stored).
    pub fn index_entity(&mut self, kind: &'static str, id: Id) {
        let parents = self.parents_of(kind, id);
        self.index.add(kind, &parents, id);
    }

    /// Builds the index from the stored entities.
    pub fn rebuild_index(&mut self) {
        let mut all: Vec<(&'static str, Id)> = Vec::new();
        all.extend(self.campaigns.keys().map(|id| ("Campaign", *id)));
        all.extend(self.ad_groups.keys().map(|id| ("AdGroup", *id)));
        all.extend(self.keywords.keys().map(|id| ("Keyword", *id)));
        all.extend(
            self.negative_keywords
                .keys()
                .map(|id| ("NegativeKeyword", *id)),
        );
        all.extend(self.ads.keys().map(|id| ("Ad", *id)));
        all.extend(self.creatives.keys().map(|id| ("Creative", *id)));
        self.index = Index::default();
        for (kind, id) in all {
            self.index_entity(kind, id);
        }
    }
}
