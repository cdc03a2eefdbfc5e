-- Daily keyword metrics synced from Apple Ads, keyed on Apple's integer ids. The account and
-- the day lead the key, so a date range of one ad account is one contiguous slice. Spend is
-- in micros of the ad account's currency; sums are exact (NUMERIC on PostgreSQL).
CREATE TABLE keyword_day_metrics (
    ad_account_id BIGINT NOT NULL,
    day DATE NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    keyword_id BIGINT NOT NULL,
    impressions BIGINT NOT NULL DEFAULT 0,
    taps BIGINT NOT NULL DEFAULT 0,
    installs BIGINT NOT NULL DEFAULT 0,
    spend_micros BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (ad_account_id, day, campaign_id, ad_group_id, keyword_id)
);
