-- When each upload was last named by a tune, as a sequence number (later is larger), so that
-- a full upload store evicts the least recently used uploads first. Uploads stored before
-- count as used in the order they were stored.
ALTER TABLE uploads ADD COLUMN last_used INTEGER NOT NULL DEFAULT 0;
UPDATE uploads SET last_used = rowid;
