-- Apple's search popularity (v1 search-term popularity, `searchPopularity1to100`) per search
-- text and storefront, shared by every workspace (it is Apple's public figure, not a
-- workspace's data). `text` is normalised as spec §5 parses keyword lists (lower-cased,
-- punctuation and symbols removed, spaces collapsed: `store::popularity::normalise`),
-- `country` an upper-case ISO code. `popularity` is NULL when Apple published none for the
-- text (too few searches): remembered so the weekly refresh does not ask again before it is
-- stale. `fetched_at` (ms) is when Apple was last asked; rows older than 7 days are
-- refreshed by the `refresh-popularity` job (docs/sync-and-jobs.md).
CREATE TABLE search_popularity (
    text TEXT NOT NULL,
    country TEXT NOT NULL,
    popularity BIGINT,
    fetched_at BIGINT NOT NULL,
    PRIMARY KEY (text, country)
);
CREATE INDEX search_popularity_fetched ON search_popularity (country, fetched_at);
