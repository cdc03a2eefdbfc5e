-- Daily reference exchange rates (docs/currencies.md, "Reporting currency"): per day and
-- currency, how many units of the currency one euro buys, as published by the configured
-- feed (ECB eurofxref format). `rate` is decimal text (never a float); `source` names the
-- feed's publisher, `fetched_at` when the row was last written (ms). Days are ISO dates
-- (YYYY-MM-DD text, comparable as text on both backends).
CREATE TABLE fx_rates (
    day TEXT NOT NULL,
    currency TEXT NOT NULL,
    rate TEXT NOT NULL,
    source TEXT NOT NULL,
    fetched_at BIGINT NOT NULL,
    PRIMARY KEY (day, currency)
);
