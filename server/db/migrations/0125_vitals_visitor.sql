-- The visitor a measurement came from (the id of the signed visitor cookie, server/edge/visitors.ts): the report
-- counts each visitor once. Rows from before it have none and count as a visitor each.
ALTER TABLE web_vitals ADD COLUMN visitor text;
