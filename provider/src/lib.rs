//! Client for the Apple Ads Platform API v1 (built by the provider issue).
