//! The single creates of a plan: a campaign, an ad group (with its keywords and negatives
//! after it), a custom product page's creative and an ad, each made once through
//! `AppleAds::create_once_json` and recorded under its natural key.

use super::*;

impl<J: Job<Progress = CreationProgress>> Executor<'_, J> {
    pub(super) async fn campaign(
        &mut self,
        name: &str,
        body: &Value,
        method: &str,
    ) -> Result<i64, JobError> {
        let key = format!("c:{name}");
        let natural = json!([{ "field": "name", "operator": "EQUALS", "value": [name] }]);
        let id = self
            .create(
                key,
                Entity::Campaigns,
                body,
                natural,
                method,
                name,
                wire::campaign,
            )
            .await?;
        self.campaign_names.insert(id, name.to_string());
        Ok(id)
    }

    /// An ad group, its keywords and its negatives.
    pub(super) async fn group(
        &mut self,
        campaign: &str,
        campaign_id: i64,
        g: &PlannedGroup,
        method: &str,
    ) -> Result<(), JobError> {
        let mut body = json!({
            "campaignId": campaign_id,
            "name": g.name,
            "pricingModel": "CPT",
            "automatedKeywordsOptIn": g.automated_keywords_opt_in,
            "status": g.status.as_deref().unwrap_or("ENABLED"),
            "bidStrategy": { "bid": self.money(g.default_bid_micros) },
        });
        if let Some(cpa) = g.cpa_goal_micros {
            body["cpaCap"] = json!({ "value": self.money(cpa) });
        }
        if let Some(t) = &g.targeting {
            body["targeting"] = t.clone();
        }
        let key = format!("g:{campaign_id}:{}", g.name);
        let natural = json!([
            { "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] },
            { "field": "name", "operator": "EQUALS", "value": [g.name] },
        ]);
        let id = self
            .create(
                key,
                Entity::AdGroups,
                &body,
                natural,
                method,
                &g.name,
                wire::ad_group,
            )
            .await?;
        if let Some(m) = self.progress.campaigns_mapping.last_mut() {
            m.ad_groups.push(GroupMapping {
                name: g.name.clone(),
                ad_group_id: id,
            });
        }
        self.ads.push((
            campaign.to_string(),
            g.name.clone(),
            id,
            g.creative_ids.clone(),
        ));
        if !g.keywords.is_empty() {
            self.report("Adding keywords...").await;
        }
        let done = self.keywords(campaign, &g.name, id, &g.keywords).await?;
        self.progress.keywords_created += done;
        self.negatives(campaign, campaign_id, Some((id, &g.name)), &g.negatives)
            .await?;
        self.progress.groups_created += 1;
        self.report("Creating ad groups...").await;
        Ok(())
    }

    /// The creative of custom product page `page`: one the ad account has, else made once.
    pub(super) async fn page_creative(
        &mut self,
        adam_id: i64,
        page: &str,
    ) -> Result<i64, JobError> {
        let key = format!("cr:{page}");
        if let Some(r) = self.recorded.get(&key) {
            return Ok(r.provider_id);
        }
        let all = json!({ "field": "creativeType", "operator": "EQUALS", "value": ["CUSTOM_PRODUCT_PAGE"] });
        let found = match self.held(Entity::Creatives, &all, None).await {
            Ok(h) => h,
            Err(e) => return Err(self.failed("createAd", page, e).await),
        };
        if let Some(c) = found.iter().find(|c| {
            c["destination"]["parameters"]["productPageId"].as_str() == Some(page)
                && c["destination"]["parameters"]["adamId"].as_str() == Some(&adam_id.to_string())
        }) {
            let row = wire::creative(c)?;
            let id = row.id;
            self.save(&key, id, None, &[row], &[]).await?;
            return Ok(id);
        }
        let name = format!("Custom product page {page}");
        let body = json!({
            "name": name,
            "creativeType": "CUSTOM_PRODUCT_PAGE",
            "destination": {
                "destinationType": "APP_STORE_PRODUCT_PAGE",
                "parameters": { "adamId": adam_id.to_string(), "productPageId": page },
            },
        });
        let natural = json!([{ "field": "name", "operator": "EQUALS", "value": [name] }]);
        self.create(
            key,
            Entity::Creatives,
            &body,
            natural,
            "createAd",
            page,
            wire::creative,
        )
        .await
    }

    /// The ad of ad group `group_id` with `creative`, once.
    pub(super) async fn ad(
        &mut self,
        campaign: &str,
        group: &str,
        group_id: i64,
        creative: i64,
    ) -> Result<i64, JobError> {
        let key = format!("a:{group_id}:{creative}");
        let name: String = format!("{campaign} {group}").chars().take(200).collect();
        let body = json!({
            "adGroupId": group_id,
            "creativeId": creative,
            "name": name,
            "status": "ENABLED",
        });
        let natural = json!([
            { "field": "adGroupId", "operator": "EQUALS", "value": [group_id] },
            { "field": "creativeId", "operator": "EQUALS", "value": [creative] },
        ]);
        self.create(
            key,
            Entity::Ads,
            &body,
            natural,
            "createAd",
            &name,
            wire::ad,
        )
        .await
    }
}
