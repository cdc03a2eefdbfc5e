-- App Store Connect (issue 44, docs/api/app-store-connect.md): a second revenue source that
-- needs no attribution provider. A workspace connects team keys of the App Store Connect API
-- (`PUT /api/users/one/connect/appStore`); a job reads each key's daily Sales and Trends
-- summary into `app_store_sales`.
--
-- `app_store_connections`: one per workspace and key id. The `.p8` private key is stored
-- sealed (the secrets key, context `app-store-connect:<workspace>:<key id>`) and never
-- answered; `apps` is the JSON list of the apps the key saw when it was checked
-- (`[{adamId, name, bundleId, sku}]`). The last successful read and the last error (in the
-- user's words) are what the Integrations screen shows.
CREATE TABLE app_store_connections (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    issuer_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    vendor_number TEXT NOT NULL,
    private_key_sealed TEXT NOT NULL,
    name TEXT NOT NULL,
    apps TEXT NOT NULL,
    created_by TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_success_at BIGINT,
    last_error TEXT,
    last_error_at BIGINT,
    UNIQUE (workspace_id, key_id)
);

-- What each app sold, per day (the report's `Begin Date`, YYYY-MM-DD), country and product
-- type (`Product Type Identifier`): units and proceeds (units × developer proceeds) in
-- micros of the proceeds' currency. A day read again replaces the day's rows in one
-- transaction, so a day is stored once however often it is read.
CREATE TABLE app_store_sales (
    connection_id TEXT NOT NULL REFERENCES app_store_connections(id) ON DELETE CASCADE,
    adam_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    country TEXT NOT NULL,
    product_type TEXT NOT NULL,
    units BIGINT NOT NULL,
    proceeds_micros BIGINT NOT NULL,
    currency TEXT NOT NULL,
    PRIMARY KEY (connection_id, adam_id, day, country, product_type)
);

-- The days whose report has been read (a day without sales too: Apple answered that it had
-- none), so `history` and the last day read do not depend on a day having sales.
CREATE TABLE app_store_sales_days (
    connection_id TEXT NOT NULL REFERENCES app_store_connections(id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    read_at BIGINT NOT NULL,
    PRIMARY KEY (connection_id, day)
);
