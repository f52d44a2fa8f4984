-- The resolver's cache, persisted.
CREATE TABLE names (
  query text PRIMARY KEY,
  canonical text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  resolved_at timestamp
);

CREATE INDEX names_canonical ON names (canonical);
