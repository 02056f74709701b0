-- With PostgreSQL (DATABASE_URL) a screenshot's bytes live in the database, so whichever server a player or an
-- operator reaches serves it. The embedded database keeps them in $DATA_DIR/uploads (`file`). A server that starts
-- on PostgreSQL moves the files it finds in its own $DATA_DIR/uploads into `data` (a SQL migration cannot read
-- files; see server/uploads/Uploads.ts).
ALTER TABLE uploads ADD COLUMN data bytea;
ALTER TABLE uploads ALTER COLUMN file DROP NOT NULL;
ALTER TABLE uploads ADD CONSTRAINT uploads_stored CHECK (file IS NOT NULL OR data IS NOT NULL);
